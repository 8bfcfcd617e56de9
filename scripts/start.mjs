// `npm start` (web) and `npm run start:desktop` (desktop): checks the machine first
// (scripts/prerequisites.mjs: one line naming what is missing, before any build), then builds with a
// line before and after (tsc and esbuild say nothing for their 10 s to 2 min), then hands over to the
// launcher (test/runners/startWeb.ts or startDesktop.ts), whose exit status it exits with.
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { missingLine, missingPrerequisites } from './prerequisites.mjs';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const LAUNCHERS = { web: 'startWeb.js', desktop: 'startDesktop.js' };

const kind = process.argv[2];
if (!(kind in LAUNCHERS)) {
  console.error('usage: node scripts/start.mjs web|desktop');
  process.exit(2);
}
const missing = missingPrerequisites(kind);
if (missing.length > 0) {
  console.error(missingLine(missing, kind));
  process.exit(1);
}

let child;
// Ctrl-C in a terminal reaches the whole process group, the launcher included, which stops what it
// started and exits; a signal sent to this process alone is passed on, so it ends the same way.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (child && child.exitCode === null) child.kill(signal);
    else process.exit(130);
  });
}

/** Runs node with `args` in the repository, its output shown; resolves with its exit status. */
function node(args) {
  return new Promise((resolve) => {
    child = spawn(process.execPath, args, { cwd: REPO, stdio: 'inherit' });
    child.on('error', (err) => {
      console.error(`${args[0]}: ${err.message}`);
      resolve(1);
    });
    child.on('exit', (code) => resolve(code ?? 1));
  });
}

const started = Date.now();
console.log('building the extension (tsc, then esbuild)…');
for (const args of [[path.join(REPO, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', '.'], ['esbuild.config.mjs']]) {
  const status = await node(args);
  if (status !== 0) process.exit(status);
}
console.log(`built in ${Math.round((Date.now() - started) / 1000)} s`);
process.exit(await node([path.join(REPO, 'out', 'test', 'runners', LAUNCHERS[kind])]));
