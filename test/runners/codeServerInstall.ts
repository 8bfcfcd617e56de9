// Installs code-server (VS Code's server and web workbench, from the npm registry) into a cache
// folder on first use, the way @vscode/test-electron caches VS Code in .vscode-test/. Its own
// postinstall refuses root and downloads ripgrep from GitHub, so its steps are done here by hand.
//
// The install happens in a staging folder renamed into place only when complete, so an interrupted
// or concurrent install never leaves a half-built cache that a later run would trust.
import { existsSync, promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import { cleanEnv, run } from './processes';

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

/** Returns the path of code-server's entry.js, installing it first if the cache lacks it. */
export async function ensureCodeServer(log: (line: string) => void = console.log): Promise<string> {
  const dir = codeServerDir();
  if (existsSync(path.join(dir, MARKER))) return entryPoint(dir);

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
  log(`installing code-server ${CODE_SERVER_VERSION} into ${dir} (first run only, about 2 minutes)`);
  try {
    // Its own package.json keeps npm from walking up to an enclosing project.
    await fs.writeFile(path.join(staging, 'package.json'), '{ "private": true }\n');
    const npm = { label: 'code-server install' };
    await run('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', `code-server@${CODE_SERVER_VERSION}`],
      { ...npm, cwd: staging });

    const vscodeDir = path.join(staging, 'node_modules', 'code-server', 'lib', 'vscode');
    log('  VS Code server dependencies');
    await run('npm', ['install', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund'], { ...npm, cwd: vscodeDir });
    log('  native modules');
    // node-pty's install step runs `npx node-gyp`, which would stop to ask without npm_config_yes.
    await run('npm', ['rebuild', 'kerberos', '@parcel/watcher', '@vscode/spdlog', 'native-watchdog', 'node-pty', '@vscode/deviceid'],
      { ...npm, cwd: vscodeDir, env: cleanEnv({ npm_config_yes: 'true' }) });
    const rgTarget = path.join(vscodeDir, 'node_modules', '@vscode', 'ripgrep', 'bin', 'rg');
    await fs.mkdir(path.dirname(rgTarget), { recursive: true });
    await fs.copyFile(rg, rgTarget);
    await fs.chmod(rgTarget, 0o755);
    // The server looks its modules up under node_modules.asar, as in a packaged desktop build.
    await fs.symlink('node_modules', path.join(vscodeDir, 'node_modules.asar'));

    log('  built-in extensions');
    await run('npm', ['install', '--omit=dev', '--no-audit', '--no-fund'], { ...npm, cwd: path.join(vscodeDir, 'extensions') });
    // code-server's CLI loads argon2 even with --auth none.
    await run('npm', ['rebuild', 'argon2'], { ...npm, cwd: staging });

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
  log(`code-server installed in ${Math.round((Date.now() - started) / 1000)} s`);
  return entryPoint(dir);
}
