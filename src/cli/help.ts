// Help texts for `refactor-browser` and each of its commands.
import { DEFAULT_TIMEOUT_MS } from '../client/http';
import { MAX_GENERATED_CODES } from '../server/catalog/generatedCatalog';
import { DEFAULT_SEARCH_LIMIT, DEFAULT_WRITES_PER_MINUTE } from './args';
import { cacheFolder } from './search';
import { DEFAULT_SIMILAR_LIMIT, MAX_SIMILAR_LIMIT } from '../similarity/similarIndex';

/** Where the project lives: its README, its issues. */
export const PROJECT_URL = 'https://github.com/refactor-browser/refactor-browser';

const GLOBAL = `Global options (before or after the command):
  --base-url URL     the service's base address (env REFACTOR_BROWSER_BASE_URL);
                     without it, the built-in sample catalog is browsed
  --timeout SECONDS  give a request up after this long (default ${DEFAULT_TIMEOUT_MS / 1000})
  --json             print only JSON on stdout: an array for lists, an object for show
                     and for what post, refactor and rate made or changed
  -h, --help         show help
  --version          print the version`;

const WRITE = `A write needs a writable service (--base-url; the built-in sample catalog takes none) and a
token in the environment variable REFACTOR_BROWSER_TOKEN, which the service's owner gives. It is
sent once, never again by itself: after a failure, check what the service holds before retrying.`;

/** Stands for the cache folder in the search help until the help is asked for. */
const CACHE_FOLDER_HERE = '\u0000cache folder\u0000';

const STORAGE = `  --data-dir DIR     keep the catalog in an embedded PostgreSQL in folder DIR, made on first use
                     (or env REFACTOR_BROWSER_DATA_DIR, so as not to repeat it)
  --database URL     keep it in a PostgreSQL server (15 or later): postgres://USER@HOST:PORT/DB
                     (env REFACTOR_BROWSER_DATABASE keeps a password out of the process list)`;

const LIST = `  -l, --language L   only codes in language L (e.g. ruby, "C#", c++; all: every language)
  --page N           page N of the list (25 items a page; default 1)`;

export const TOPICS: Record<string, string> = {
  recent: `Usage: refactor-browser recent [--language L] [--page N]

The most recent codes, newest first.

${LIST}

${GLOBAL}`,
  popular: `Usage: refactor-browser popular [--language L] [--page N]

The most popular codes, most refactored first.

${LIST}

${GLOBAL}`,
  tag: `Usage: refactor-browser tag TAG [--language L] [--page N]

The codes tagged TAG, newest first.

${LIST}

${GLOBAL}`,
  tags: `Usage: refactor-browser tags [--language L]

Every tag of the service's codes with how many codes have it, most used first (--json: an array of
{ "tag", "count" }), for "refactor-browser tag TAG". The API has no list of tags: the tags are
counted from the search index that search keeps in the cache folder, brought up to date first (the
whole service the first time), so it works offline on what it kept. Only a service whose XML says a
code's tags (refactor-browser serve's does; the original RefactorMyCode's did not) has any to list.

  -l, --language L   only codes in language L (all: every language)

${GLOBAL}`,
  refactorings: `Usage: refactor-browser refactorings [--language L] [--page N]

The most recent refactorings, newest first.

${LIST}

${GLOBAL}`,
  show: `Usage: refactor-browser show CODE_REF [--order bestRated|newest|oldest]

One code with its comment and every refactoring. CODE_REF is an id (42), a code ref (42-some-title)
or a page URL of the service.

  --order ORDER      the refactorings' order, as the code view's refactorBrowser.refactoringOrder:
                     bestRated (default: the highest rating first, more votes first among equals,
                     the unrated after them), newest or oldest (by the date posted); --json too

${GLOBAL}`,
  search: `Usage: refactor-browser search QUERY [--language L] [--limit N]

Searches every code and refactoring of the service: titles, comments, code, authors and languages,
ranked (a title above code text, the last word as a prefix, a long word despite a typo). The first
search reads the whole service into an index kept in a cache folder, one file per service; each
later one reads only what is new. When the service cannot be reached, the index already kept is
searched, and stderr says so.

  -l, --language L   only codes in language L
  -n, --limit N      print at most N results (default ${DEFAULT_SEARCH_LIMIT})

The cache folder: REFACTOR_BROWSER_CACHE if set, else
  Linux    $XDG_CACHE_HOME/refactor-browser, or ~/.cache/refactor-browser
  macOS    ~/Library/Caches/refactor-browser
  Windows  %LOCALAPPDATA%\\refactor-browser\\Cache
On this machine: ${CACHE_FOLDER_HERE}

${GLOBAL}`,
  similar: `Usage: refactor-browser similar FILE [--lines A-B] [--language L] [--limit N]

Finds the catalog's codes whose structure is most like each function of FILE (as the editor
compares the function at the cursor; the whole file when it has none, or its lines A to B as one
span), names and literals set aside, so that code with other variable names still matches. FILE
"-" reads stdin, whose language --language says; otherwise the file's extension says it (.ts
matches JavaScript). Like search, it first brings the index kept in the cache folder up to date,
fingerprints what is new beside it, and answers from what it kept, online or offline. Under each
function's name and lines, one row a code: how alike (Ruby, Python, JavaScript, Java, PHP, C#, C,
C++ and Bash are compared by their syntax; the others by their words, less certain), id, title,
language, its best refactoring and the lines of FILE that matched.
--json: [{ "similarity": 0..1, "code": {...}, "lines": [first, last], "for": { "name", "lines" } }],
function by function, best first within each; [] when nothing is alike.

  --lines A-B        only lines A to B of FILE (from 1), compared as one span
  -l, --language L   FILE's language (the service's name or slug)
  -n, --limit N      print at most N codes (default ${DEFAULT_SIMILAR_LIMIT}, at most ${MAX_SIMILAR_LIMIT})

${GLOBAL}`,
  adapt: `Usage: refactor-browser adapt CODE_REF REFACTOR_ID FILE [--lines A-B]

Prints refactoring REFACTOR_ID of the code CODE_REF rewritten into FILE's names: each name (and
literal) of the catalog code is replaced by the one FILE uses in its place, and the refactoring's
own new names are kept unless FILE already uses them. FILE (or its lines A to B) must have the
catalog code's structure token for token; when it does not, or a name the refactoring uses does not
map one to one, nothing is printed on stdout and one line on stderr says why (exit 1).

  --lines A-B        only lines A to B of FILE (from 1)

${GLOBAL}`,
  mine: `Usage: refactor-browser mine REPO [--since DATE] [--until DATE] [--path GLOB]... [--max N] [--output FILE] [--all]

Finds the functions that the commits of the git repository REPO rewrote while keeping their name
and file, and writes them as a catalog (the format serve --catalog and import read): each a code (the
function before the commit, titled with its name and file, tagged "mined" and with its top folder)
with one refactoring (the function after, the commit's message as its comment, its author by name).
It keeps the rewrites that read as refactorings: the message says so (refactor, simplify, clean up,
extract, inline, readability…), or it says nothing of a feature or a fix and the function did not
grow; both versions of 3 to 80 lines sharing most of their structure; no merges, reverts, generated,
vendored or minified code. Functions are found by the syntax of Ruby, Python, JavaScript (and
TypeScript), Java, PHP, C#, C, C++ and Bash; files in other languages are counted and skipped.
Nothing is sent anywhere. Uses the git on your PATH; a shallow clone is refused.

  --since DATE       only commits after DATE (as git log reads it: 2024-01-31, "2 years ago")
  --until DATE       only commits before DATE
  --path GLOB        only files matching GLOB (e.g. "lib/**/*.js"); may be given again
  --max N            only the N most recent commits
  -o, --output FILE  write the catalog to FILE (whole, or not at all) instead of stdout
  --all              keep every rewrite, not only those that read as refactorings
  --json             progress and the summary as JSON lines on stderr
  -h, --help         show help

Progress shows on stderr when it is a terminal; a summary line ends the run.
Example: refactor-browser mine . --since "1 year ago" -o mined.json && refactor-browser serve --catalog mined.json`,
  mcp: `Usage: refactor-browser mcp [--base-url URL] [--timeout SECONDS]

A Model Context Protocol server on stdin and stdout, for an agent (VS Code, or any MCP client that
starts a command): the catalog as three read-only tools.

  search_catalog {query, language?, limit?}
                     searches the index "refactor-browser search" keeps for the service (run a
                     search once to make it, and again to bring it up to date)
  get_code {code}    one code with its refactorings, best rated first; code: an id (42), a code
                     ref (42-some-title) or a page URL of the service
  find_similar_code {code, language}
                     the codes most like the given code, names aside, each with its best
                     refactoring in the given code's names where it adapts

Only protocol messages go to stdout; what the server has to say goes to stderr. It stops when its
client closes stdin.

  --base-url URL     the service's base address (env REFACTOR_BROWSER_BASE_URL);
                     without it, the built-in sample catalog
  --timeout SECONDS  give a request up after this long (default ${DEFAULT_TIMEOUT_MS / 1000})
  -h, --help         show help`,
  post: `Usage: refactor-browser post FILE --title T --language L --comment C [--tag TAG]...

Posts the code in FILE ("-": stdin, UTF-8 text) to a writable service and prints its new page's URL
(--json: the code as show prints it).

  --title T          the code's title
  -l, --language L   its language (e.g. ruby, "C#", c++)
  --comment C        what it does, and what you would like improved
  --tag TAG          a tag; give --tag again for more, or several in one separated by spaces or commas

${WRITE}

${GLOBAL}`,
  refactor: `Usage: refactor-browser refactor CODE_REF FILE [--comment C] [--title T]

Posts the code in FILE ("-": stdin, UTF-8 text) as a refactoring of the code CODE_REF names (an id
like 42, 42-some-title, or a page URL) and prints its page's URL (--json: the refactoring as show
prints it).

  --comment C        what changed, and why
  --title T          a title of its own (without one it is shown by its author and date)

${WRITE}

${GLOBAL}`,
  rate: `Usage: refactor-browser rate CODE_REF REFACTOR_ID VALUE

Rates the refactoring REFACTOR_ID of the code CODE_REF from 1 to 5 (once; not one's own) and prints
its new rating and number of votes (--json: the refactoring as show prints it).

${WRITE}

${GLOBAL}`,
  delete: `Usage: refactor-browser delete CODE_REF [REFACTOR_ID] [--yes]

Deletes a code of one's own, with its refactorings; with REFACTOR_ID, only that refactoring of it
(one's own, or any of one's own code). Prints a line saying what is gone. When stdin is a terminal
it first names what it will delete and asks; anything but "y" or "yes" deletes nothing (exit 1).

  -y, --yes          delete without asking (what a script does; stdin that is not a terminal
                     is never asked)

${WRITE}

${GLOBAL}`,
  serve: `Usage: refactor-browser serve [--port P] [--host H] [--data-dir DIR | --database URL]
                              [--catalog FILE | --generate N] [--writes-per-minute N]
                              [--trust-proxy]

Run the reference service: the XML API and its HTML pages. With storage (--data-dir or --database)
it takes contributions through the write API: people added with "users add" post codes,
refactorings and ratings. Without, it serves a catalog read-only.

  -p, --port P       port to listen on (default 3000; 0 picks a free one)
  --host H           address to listen on (default 127.0.0.1)
${STORAGE}
  --catalog FILE     a JSON catalog to serve (default: the built-in sample catalog); with storage,
                     loaded into it when it holds no catalog yet
  --generate N       a generated catalog of N codes with 3 refactorings each, in all 16
                     languages, the same for the same N (at most ${MAX_GENERATED_CODES}); with storage, as --catalog
  --writes-per-minute N
                     the writes one person may make in a minute (default ${DEFAULT_WRITES_PER_MINUTE}),
                     counted in the storage: across every instance over one database
  --trust-proxy      behind one reverse proxy: a client's address (each may send 60 requests a
                     minute without an accepted token) is the last one in X-Forwarded-For,
                     which is ignored without this option
  -h, --help         show help

Prints "listening on http://HOST:PORT" once it accepts connections. GET /healthz answers 200 while
its storage answers, 503 otherwise. Ctrl-C or SIGTERM stops it gracefully: no new connections, the
answers under way finished (10 s at most), then the storage closed.`,
  users: `Usage: refactor-browser users add NAME [--website URL] [--identity-url URL]
       refactor-browser users list | users token (NAME | --id ID) | users revoke (NAME | --id ID)
       (each with --data-dir DIR or --database URL)

The people who may write to the service. "add" and "token" print a new token on stdout, shown only
this once: give it to the person, who signs in with it. Only a hash of it is kept. "token" replaces a
lost token; "revoke" ends one at once. "list" shows each person's id, never a token. Names are unique
("add" and "import" refuse one already stored); people of one name from an older import are named by
--id.

${STORAGE}
  --website URL      add: the person's website, shown with what they post
  --identity-url URL add: the person's identity URL
  --id ID            token, revoke: the person of that id instead of a NAME
  --json             answer in JSON: list [{ "id", "name", "canWrite", "website" }], add and token
                     { "id", "name", "token" }, revoke { "id", "name", "revoked": true }
  -h, --help         show help`,
  import: `Usage: refactor-browser import FILE (--data-dir DIR | --database URL)

Loads a catalog file (the JSON format serve --catalog reads) into the storage, with its ids. If an id,
or a person's name, is stored already, nothing is loaded and the message names it.

A file "mine" wrote is added to storage that holds anything: new ids, its authors matched by name
with the people stored (or added), and a code mined before (same commit, path and function) left
out, so importing it twice adds nothing. It prints "added N codes, M refactorings and P people from
FILE; K codes already there". All or nothing, always.

${STORAGE}
  --json             answer { "imported": { "codes", "refactors", "users" }, "source" }, and
                     "alreadyThere": K when a mined file was added
  -h, --help         show help`,
  export: `Usage: refactor-browser export [--output FILE] (--data-dir DIR | --database URL)

Writes the storage's catalog in the format serve --catalog and import read: a backup, or a move to
other storage. Tokens are never exported: after a move, give people new ones with "users token".

  -o, --output FILE  write to FILE (whole or not at all) instead of stdout
  --json             (the catalog is JSON either way)
${STORAGE}
  -h, --help         show help`,
};

export const MAIN_HELP = `Usage: refactor-browser <command> [options]

Browse a code-sharing and refactoring service over its XML API, contribute to it, and run one.

Commands:
  recent [--language L] [--page N]        most recent codes
  popular [--language L] [--page N]       most popular codes
  tag TAG [--language L] [--page N]       codes with a tag
  tags [--language L]                     the tags, most used first, with their codes' count
  refactorings [--language L] [--page N]  most recent refactorings
  show CODE_REF [--order O]               one code with its refactorings, best rated first
  search QUERY [--language L] [--limit N] search every code and refactoring
  similar FILE [--lines A-B] [--language L] [--limit N]
                                          the codes most like yours, names aside
  adapt CODE_REF REFACTOR_ID FILE [--lines A-B]
                                          a refactoring rewritten into your code's names
  mcp                                     the catalog as tools for agents (MCP on stdio)
  mine REPO [--since D] [--until D] [--path GLOB]... [--max N] [--output FILE] [--all]
                                          a git repository's refactorings as a catalog file
  serve [--port P] [--host H] [--data-dir DIR | --database URL] [--catalog FILE | --generate N]
                                          run the reference service
  users add NAME [--website URL] [--identity-url URL] | list | token NAME | revoke NAME
                                          the people who may write (token, revoke: or --id ID)
  import FILE | export [--output FILE]  (--data-dir DIR | --database URL)
                                          a service's catalog in and out

Contributing (a writable service; token: env REFACTOR_BROWSER_TOKEN):
  post FILE --title T --language L --comment C [--tag TAG]...
                                          post a code ("-": stdin); prints its page
  refactor CODE_REF FILE [--comment C] [--title T]
                                          post a refactoring of a code; prints its page
  rate CODE_REF REFACTOR_ID VALUE         rate a refactoring from 1 to 5
  delete CODE_REF [REFACTOR_ID] [--yes]   delete a code of one's own, or a refactoring

${GLOBAL}

Examples:
  refactor-browser recent --language ruby            the newest Ruby codes of the sample catalog
  refactor-browser show 42 --base-url https://refactor.example.org
  refactor-browser --json popular --page 2 | jq '.[].title'
  refactor-browser search "parse log" --limit 5
  refactor-browser similar src/parse.py --lines 10-30
  refactor-browser serve --port 3000                 then --base-url http://127.0.0.1:3000

Exit status: 0 success, 1 failure, 2 bad usage.
Run "refactor-browser <command> --help" for a command's options.
More: ${PROJECT_URL}#readme`;

/** The help for `topic` (a command), or the program's; `env` decides the cache folder search shows. */
export function helpText(topic?: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (topic === undefined) return MAIN_HELP;
  // An own property only: `help constructor` must not print Object's constructor.
  if (!Object.hasOwn(TOPICS, topic)) return undefined;
  return TOPICS[topic].replace(CACHE_FOLDER_HERE, cacheFolder(env));
}
