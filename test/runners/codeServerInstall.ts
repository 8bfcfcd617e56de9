// Installs code-server (VS Code's server and web workbench, from the npm registry) into a cache
// folder on first use, the way @vscode/test-electron caches VS Code in .vscode-test/. Its own
// postinstall refuses root and downloads ripgrep from GitHub, so its steps are done here by hand.
// Nothing is downloaded but packages from the npm registry: native modules are compiled against the
// headers of the Node that runs this (node-gyp would otherwise fetch them from nodejs.org), those
// that first try a prebuilt binary from GitHub are told to build from source, and ripgrep is the
// machine's. What the machine must have is checked first (scripts/prerequisites.mjs), in one line.
//
// The install happens in a staging folder renamed into place only when complete, so an interrupted
// or concurrent install never leaves a half-built cache that a later run would trust.
import { existsSync, promises as fs, realpathSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { cleanEnv, run } from './processes';

const REPO = path.resolve(__dirname, '..', '..', '..');
export const CODE_SERVER_VERSION = '4.100.3';
const MARKER = '.refactor-browser-complete';

export function codeServerDir(): string {
  const override = process.env.REFACTOR_BROWSER_CODE_SERVER_DIR;
  if (override) return path.resolve(override);
  const cache = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(cache, 'refactor-browser', `code-server-${CODE_SERVER_VERSION}`);
}

/** code-server's CLI entry point inside an installed cache folder. */
export function entryPoint(dir: string): string {
  return path.join(dir, 'node_modules', 'code-server', 'out', 'node', 'entry.js');
}

function which(program: string): string | undefined {
  try {
    return execFileSync('which', [program], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

/**
 * The prefix of the Node at `execPath` whose include/node/node.h holds its headers (Debian's nodejs:
 * /usr), for node-gyp's nodedir; a one-line error when they are absent, rather than a download.
 */
export function nodeHeadersDir(execPath = process.execPath): string {
  const prefix = path.dirname(path.dirname(realpathSync(execPath)));
  const header = path.join(prefix, 'include', 'node', 'node.h');
  if (!existsSync(header)) {
    throw new Error(`the headers of this Node are missing (no ${header}): native modules cannot be compiled without downloading them`);
  }
  return prefix;
}

/**
 * The environment of an npm step that may compile native modules: node-gyp compiles against this
 * Node's headers (npm_config_nodedir, whatever the npmrc files say), and `buildFromSource` names a
 * module whose install would first fetch a prebuilt binary from GitHub (prebuild-install,
 * node-pre-gyp) so that it builds from source straight away.
 */
export function nativeBuildEnv(buildFromSource?: string): NodeJS.ProcessEnv {
  return cleanEnv({
    // node-pty's install step runs `npx node-gyp`, which would stop to ask without npm_config_yes.
    npm_config_yes: 'true',
    npm_config_nodedir: nodeHeadersDir(),
    ...(buildFromSource ? { npm_config_build_from_source: buildFromSource } : {}),
  });
}

/** `npm rebuild` of native `modules` installed under `cwd`, compiled here (see nativeBuildEnv). */
export function rebuildNative(cwd: string, modules: string[], buildFromSource?: string): Promise<void> {
  return run('npm', ['rebuild', ...modules], { label: 'code-server install', cwd, env: nativeBuildEnv(buildFromSource) });
}

const seconds = (since: number): number => Math.round((Date.now() - since) / 1000);

/** Runs one step of the install between a line that names it and one that says how long it took. */
async function step(log: (line: string) => void, label: string, work: () => Promise<void>): Promise<void> {
  const started = Date.now();
  log(`  ${label}…`);
  await work();
  log(`  ${label}: ${seconds(started)} s`);
}

/** Returns the path of code-server's entry.js, installing it first if the cache lacks it. */
export async function ensureCodeServer(log: (line: string) => void = console.log): Promise<string> {
  const dir = codeServerDir();
  if (existsSync(path.join(dir, MARKER))) return entryPoint(dir);

  // The same check as `npm start` makes before its build, for the launchers that install on their own.
  const check = spawnSync(process.execPath, [path.join(REPO, 'scripts', 'prerequisites.mjs'), 'web'], { encoding: 'utf8' });
  if (check.status !== 0) throw new Error(check.stderr.trim() || `scripts/prerequisites.mjs exited with ${check.status ?? check.signal}`);
  const rg = which('rg');
  if (!rg) throw new Error('ripgrep (rg) is not on PATH: install it (Debian: apt-get install ripgrep)');
  const major = Number(process.versions.node.split('.')[0]);
  if (major !== 20) log(`warning: code-server ${CODE_SERVER_VERSION} needs Node 20; this is Node ${process.versions.node}`);

  // A leftover folder without the marker is an interrupted install from before staging existed.
  if (existsSync(dir)) await fs.rm(dir, { recursive: true, force: true });
  await fs.mkdir(path.dirname(dir), { recursive: true });
  const staging = `${dir}.partial-${process.pid}`;
  await fs.rm(staging, { recursive: true, force: true });
  await fs.mkdir(staging, { recursive: true });
  const started = Date.now();
  log(`installing VS Code's server (code-server ${CODE_SERVER_VERSION}) into ${dir}: first run only, about 2 minutes`);
  try {
    // Its own package.json keeps npm from walking up to an enclosing project.
    await fs.writeFile(path.join(staging, 'package.json'), '{ "private": true }\n');
    const npm = { label: 'code-server install' };
    await step(log, `code-server ${CODE_SERVER_VERSION} from the npm registry`, () =>
      run('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', `code-server@${CODE_SERVER_VERSION}`], { ...npm, cwd: staging }));

    const vscodeDir = path.join(staging, 'node_modules', 'code-server', 'lib', 'vscode');
    await step(log, "VS Code server's dependencies", () =>
      run('npm', ['install', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund'], { ...npm, cwd: vscodeDir }));
    await step(log, 'native modules, compiled against this Node', async () => {
      await rebuildNative(vscodeDir, ['kerberos'], 'kerberos');
      await rebuildNative(vscodeDir, ['@parcel/watcher', '@vscode/spdlog', 'native-watchdog', 'node-pty', '@vscode/deviceid']);
    });
    const rgTarget = path.join(vscodeDir, 'node_modules', '@vscode', 'ripgrep', 'bin', 'rg');
    await fs.mkdir(path.dirname(rgTarget), { recursive: true });
    await fs.copyFile(rg, rgTarget);
    await fs.chmod(rgTarget, 0o755);
    // The server looks its modules up under node_modules.asar, as in a packaged desktop build.
    await fs.symlink('node_modules', path.join(vscodeDir, 'node_modules.asar'));

    await step(log, 'built-in extensions', () =>
      run('npm', ['install', '--omit=dev', '--no-audit', '--no-fund'], { ...npm, cwd: path.join(vscodeDir, 'extensions'), env: nativeBuildEnv() }));
    // code-server's CLI loads argon2 even with --auth none.
    await step(log, "code-server's argon2", () => rebuildNative(staging, ['argon2'], 'argon2'));

    await fs.writeFile(path.join(staging, MARKER), `code-server ${CODE_SERVER_VERSION}, node ${process.version}\n`);
    try {
      await fs.rename(staging, dir);
    } catch (err) {
      // Another run finished first: use its install.
      if (!existsSync(path.join(dir, MARKER))) throw err;
      await fs.rm(staging, { recursive: true, force: true });
    }
  } catch (err) {
    await fs.rm(staging, { recursive: true, force: true });
    throw err;
  }
  log(`VS Code's server installed in ${seconds(started)} s`);
  return entryPoint(dir);
}
