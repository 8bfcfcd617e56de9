#!/bin/sh
# Runs a command with a private PostgreSQL server for the tests: a fresh cluster in a temporary
# directory on a free loopback port, its URL in REFACTOR_BROWSER_TEST_DATABASE. The server is stopped
# and the directory removed however the command ends; the command's exit code is passed through.
#   bash scripts/withPostgres.sh npx mocha 'out/test/unit/server/sql/**/*.test.js'
# Needs Debian's postgresql package and root (the server runs as the postgres user).
set -eu

if [ "$#" -eq 0 ]; then
  echo "usage: $0 COMMAND [ARGS...]" >&2
  exit 2
fi
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
  echo "$0: no PostgreSQL under /usr/lib/postgresql (apt-get install postgresql)" >&2
  exit 2
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "$0: run as root: the server runs as the postgres user" >&2
  exit 2
fi

dir=$(mktemp -d /tmp/refactor-browser-pg.XXXXXX)
chown postgres: "$dir"
as_postgres() {
  su postgres -s /bin/sh -c "$1"
}
stop() {
  if [ -f "$dir/data/postmaster.pid" ]; then
    as_postgres "'$bin/pg_ctl' -D '$dir/data' -m fast -w stop" >/dev/null 2>&1 || true
  fi
  rm -rf "$dir"
}
trap stop EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

as_postgres "'$bin/initdb' -A trust -U postgres -D '$dir/data'" >"$dir/initdb.log" 2>&1 || {
  cat "$dir/initdb.log" >&2
  exit 1
}
port=$(node -e "const s = require('node:net').createServer().listen(0, '127.0.0.1', () => { console.log(s.address().port); s.close(); })")
as_postgres "'$bin/pg_ctl' -D '$dir/data' -o \"-p $port -k '$dir' -c listen_addresses=127.0.0.1\" -l '$dir/log' -w start" >/dev/null || {
  cat "$dir/log" >&2
  exit 1
}
as_postgres "'$bin/createdb' -h 127.0.0.1 -p $port -U postgres test"

export REFACTOR_BROWSER_TEST_DATABASE="postgres://postgres@127.0.0.1:$port/test"
set +e
"$@"
code=$?
set -e
exit "$code"
