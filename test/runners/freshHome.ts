// What the smoke check of `npm start` needs to run it as a newcomer does, on a machine that has never
// run it: an environment whose HOME is a new empty folder and which names no cache, a look over /proc
// for what was left running under that HOME, and the progress lines `npm start` must print on its
// first run (scripts/start.mjs, test/runners/startWeb.ts, test/runners/codeServerInstall.ts).
import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * Variables that point a run at something an earlier run left: npm's own (npm_config_cache among
 * them, and every npm_* npm sets for the script running this), XDG_* (XDG_CACHE_HOME holds
 * code-server's install and node-gyp's headers, XDG_CONFIG_HOME and XDG_DATA_HOME code-server's
 * settings), the project's REFACTOR_BROWSER_* (REFACTOR_BROWSER_CODE_SERVER_DIR names an installed
 * code-server, REFACTOR_BROWSER_WEB_PORT a port) and Node's compile cache.
 */
const CACHE_VARIABLE = /^(npm_|xdg_|refactor_browser_)|^node_compile_cache$/i;

/**
 * `env` as a person's shell has it on a machine that never ran `npm start`: HOME is `home` (so
 * npm's cache is `home`/.npm and code-server installs into `home`/.cache/refactor-browser), and
 * nothing in it names a cache or an earlier install.
 */
export function freshHomeEnv(env: NodeJS.ProcessEnv, home: string): NodeJS.ProcessEnv {
  const fresh: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    if (!CACHE_VARIABLE.test(name)) fresh[name] = value;
  }
  fresh.HOME = home;
  return fresh;
}

export interface HomeProcess {
  pid: number;
  command: string;
}

/**
 * The processes (Linux: /proc/<pid>/environ) whose HOME is `home`, other than this one: one pass
 * over at most `limit` entries of `procDir`. Those of other users, and zombies, show no environment
 * and are not listed.
 */
export function processesWithHome(home: string, { procDir = '/proc', limit = 100_000 } = {}): HomeProcess[] {
  const wanted = `HOME=${home}`;
  const found: HomeProcess[] = [];
  const entries = fs.readdirSync(procDir).filter((name) => /^\d+$/.test(name)).slice(0, limit);
  for (const name of entries) {
    const pid = Number(name);
    if (pid === process.pid) continue;
    let environ: string;
    try {
      environ = fs.readFileSync(path.join(procDir, name, 'environ'), 'utf8');
    } catch {
      continue; // ended meanwhile, or not ours to read
    }
    if (!environ.split('\0').includes(wanted)) continue;
    let command = '';
    try {
      command = fs.readFileSync(path.join(procDir, name, 'cmdline'), 'utf8').split('\0').filter(Boolean).join(' ');
    } catch {
      // ended meanwhile: still worth naming
    }
    found.push({ pid, command: command.slice(0, 200) });
  }
  return found;
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The progress lines the first `npm start` prints, in order, one before and one after each step
 * that takes more than a couple of seconds: the build (scripts/start.mjs), VS Code's server's install
 * into `installDir` and each of its steps (codeServerInstall.ts), its start (startWeb.ts), the URL.
 */
export function expectedFirstStartLines(installDir: string, version: string): RegExp[] {
  return [
    /^building the extension \(tsc, then esbuild\)…$/,
    /^built in \d+ s$/,
    new RegExp(`^installing VS Code's server \\(code-server ${escape(version)}\\) into ${escape(installDir)}: first run only`),
    new RegExp(`^  code-server ${escape(version)} from the npm registry…$`),
    new RegExp(`^  code-server ${escape(version)} from the npm registry: \\d+ s$`),
    /^ {2}VS Code server's dependencies…$/,
    /^ {2}VS Code server's dependencies: \d+ s$/,
    /^ {2}native modules, compiled against this Node…$/,
    /^ {2}native modules, compiled against this Node: \d+ s$/,
    /^ {2}built-in extensions…$/,
    /^ {2}built-in extensions: \d+ s$/,
    /^ {2}code-server's argon2…$/,
    /^ {2}code-server's argon2: \d+ s$/,
    /^VS Code's server installed in \d+ s$/,
    /^starting VS Code's server…$/,
    /^VS Code's server started in \d+ s$/,
    /^Refactor Browser in VS Code for the Web: http:\/\/127\.0\.0\.1:\d+\//,
  ];
}

/** The first of `expected` that `output`'s lines do not match in that order, or undefined when all do. */
export function firstMissingLine(output: string, expected: readonly RegExp[]): RegExp | undefined {
  const lines = output.split(/\r?\n/);
  let at = 0;
  for (const pattern of expected) {
    const found = lines.findIndex((line, i) => i >= at && pattern.test(line));
    if (found < 0) return pattern;
    at = found + 1;
  }
  return undefined;
}
