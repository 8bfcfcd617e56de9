// What `npm start` (web) and `npm run start:desktop` (desktop) need from the machine, checked before
// anything is built so that a missing program costs a second, not a build and a half-done install.
// Run as `node scripts/prerequisites.mjs web|desktop`: prints nothing and exits 0 when all is there,
// otherwise ONE line naming what is missing and the Debian packages that provide it, and exits 1.
//
// web: VS Code's server (code-server, from the npm registry) is installed on first use and its native
// modules are compiled here, against the headers of the Node that runs it, never downloaded: a C/C++
// toolchain and Python for node-gyp, Kerberos' headers for the `kerberos` module, Node's headers, and
// ripgrep, which the server searches with (its own copy would be downloaded from GitHub). No browser:
// `npm start` prints the address to open in yours.
// desktop: `code` on PATH needs nothing more; otherwise @vscode/test-electron downloads VS Code,
// which needs a display and the shared libraries Electron links against.
import { accessSync, constants, existsSync, realpathSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The first executable called `name` in `PATH`, or undefined. */
export function onPath(name, env = process.env) {
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** The prefix whose include/node/node.h holds the headers of the Node at `execPath` (Debian: /usr), or undefined. */
export function nodeHeadersPrefix(execPath = process.execPath) {
  const prefix = path.dirname(path.dirname(realpathSync(execPath)));
  return existsSync(path.join(prefix, 'include', 'node', 'node.h')) ? prefix : undefined;
}

/** Shared libraries the dynamic linker knows (`ldconfig -p`), by file name. */
function sharedLibraries() {
  for (const ldconfig of ['/sbin/ldconfig', '/usr/sbin/ldconfig', 'ldconfig']) {
    try {
      const out = execFileSync(ldconfig, ['-p'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
      return new Set(out.split('\n').map((l) => l.trim().split(' ')[0]).filter(Boolean));
    } catch {
      // try the next
    }
  }
  return new Set();
}

// Electron's own needs (VS Code's .deb names these among its dependencies), by library and Debian package.
const ELECTRON_LIBRARIES = [
  ['libnss3.so', 'libnss3'],
  ['libatk-bridge-2.0.so.0', 'libatk-bridge2.0-0'],
  ['libgtk-3.so.0', 'libgtk-3-0'],
  ['libgbm.so.1', 'libgbm1'],
  ['libasound.so.2', 'libasound2'],
  ['libxkbfile.so.1', 'libxkbfile1'],
  ['libsecret-1.so.0', 'libsecret-1-0'],
];

/**
 * What `kind` ('web' or 'desktop') lacks on this machine: [{ what, packages }] (packages: Debian's,
 * possibly none), empty when nothing is missing.
 */
export function missingPrerequisites(kind, { env = process.env, execPath = process.execPath, includeDir = '/usr/include', libraries } = {}) {
  const missing = [];
  if (kind === 'web') {
    if (!onPath('rg', env)) missing.push({ what: 'ripgrep (rg)', packages: ['ripgrep'] });
    const tools = ['cc', 'c++', 'make'].filter((tool) => !onPath(tool, env));
    if (tools.length > 0) missing.push({ what: `a C/C++ toolchain (${tools.join(', ')})`, packages: ['build-essential'] });
    if (!onPath('python3', env)) missing.push({ what: 'python3 (for node-gyp)', packages: ['python3'] });
    if (!existsSync(path.join(includeDir, 'gssapi', 'gssapi.h'))) {
      missing.push({ what: `Kerberos headers (${path.join(includeDir, 'gssapi', 'gssapi.h')})`, packages: ['libkrb5-dev'] });
    }
    if (!nodeHeadersPrefix(execPath)) {
      const prefix = path.dirname(path.dirname(realpathSync(execPath)));
      // Debian's own Node keeps them in libnode-dev; a Node from elsewhere brings them in its tarball.
      missing.push({
        what: `the headers of this Node (${path.join(prefix, 'include', 'node', 'node.h')})`,
        packages: prefix === '/usr' ? ['libnode-dev'] : [],
      });
    }
  } else if (kind === 'desktop') {
    if (env.REFACTOR_BROWSER_CODE || onPath('code', env)) return missing;
    if (!env.DISPLAY && !env.WAYLAND_DISPLAY) {
      missing.push({ what: 'a display for VS Code (DISPLAY unset; or run it under xvfb-run)', packages: ['xvfb'] });
    }
    const known = libraries ?? sharedLibraries();
    const libs = ELECTRON_LIBRARIES.filter(([lib]) => !known.has(lib));
    if (libs.length > 0) missing.push({ what: `VS Code's libraries (${libs.map(([lib]) => lib).join(', ')})`, packages: libs.map(([, pkg]) => pkg) });
  } else {
    throw new Error(`unknown kind ${JSON.stringify(kind)}: web or desktop`);
  }
  return missing;
}

/** The one line that says what is missing and what to install, e.g. `missing: ripgrep (rg) — apt-get install ripgrep`. */
export function missingLine(missing, kind) {
  const packages = [...new Set(missing.flatMap((m) => m.packages))];
  const install = packages.length > 0 ? ` — apt-get install ${packages.join(' ')}` : '';
  const instead = kind === 'desktop' ? ' (or `npm start`: VS Code for the Web)' : '';
  return `missing: ${missing.map((m) => m.what).join(', ')}${install}${instead}`;
}

// Run as a script.
if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const kind = process.argv[2];
  try {
    const missing = missingPrerequisites(kind);
    if (missing.length > 0) {
      console.error(missingLine(missing, kind));
      process.exit(1);
    }
  } catch (err) {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(2);
  }
}

