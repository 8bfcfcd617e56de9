// Writes ThirdPartyNotices.txt: the licence of every package the bundles contain, read from the
// packages themselves, so that the texts their licences ask for travel with the .vsix and the npm
// package. What a bundle contains comes from esbuild's metafile (the inputs each output holds bytes
// of), not from package.json: a dependency nothing uses is not shipped, and a package one pulls in is.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

export const NOTICES_FILE = 'ThirdPartyNotices.txt';

/** The MIT License as the Open Source Initiative gives it, for a package that names it but ships no text. */
const MIT = `Permission is hereby granted, free of charge, to any person obtaining a copy of this software and
associated documentation files (the "Software"), to deal in the Software without restriction,
including without limitation the rights to use, copy, modify, merge, publish, distribute,
sublicense, and/or sell copies of the Software, and to permit persons to whom the Software is
furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all copies or
substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING BUT
NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND
NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES
OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN
CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.`;

/**
 * The package folder an input of a metafile belongs to (`node_modules/@scope/name`, the innermost
 * node_modules for a nested copy), or undefined for the project's own sources.
 */
export function packageDirOf(input) {
  const parts = input.split(/[\\/]/);
  const at = parts.lastIndexOf('node_modules');
  if (at === -1 || at + 1 >= parts.length) return undefined;
  const length = parts[at + 1].startsWith('@') ? 2 : 1;
  return parts.slice(0, at + 1 + length).join('/');
}

/** The licence file a package ships (LICENSE, LICENSE.md, LICENCE.txt, COPYING …), if any. */
function licenceFileOf(dir) {
  return readdirSync(dir).filter((f) => /^(licen[cs]e|copying)(\.(md|txt))?$/i.test(f)).sort()[0];
}

/** A package's licence text: its licence file, else the MIT text under its author's name when package.json says MIT. */
function licenceText(dir, manifest) {
  const file = licenceFileOf(dir);
  if (file) return readFileSync(path.join(dir, file), 'utf8').replace(/\r\n/g, '\n').trim();
  if (manifest.license === 'MIT') {
    const author = typeof manifest.author === 'string' ? manifest.author : manifest.author?.name;
    const holder = author ? author.replace(/\s*[<(].*$/, '').trim() : `the authors of ${manifest.name}`;
    return `MIT License (the package names it in package.json and ships no licence file)\n\nCopyright (c) ${holder}\n\n${MIT}`;
  }
  throw new Error(`${manifest.name}: no licence file and a licence other than MIT (${manifest.license}); its text must ship with the bundles`);
}

/**
 * The packages in the builds: name, version, licence and text, and the bundles each is in.
 * `builds`: each bundle's output file with its metafile.
 */
export function bundledPackages(builds, copied = []) {
  const byDir = new Map();
  // Files copied beside the bundles as they are (the parser's and grammars' WebAssembly).
  for (const { dir, into } of copied) byDir.set(dir, new Set([...(byDir.get(dir) ?? []), into]));
  for (const { bundle, metafile } of builds) {
    // What the output holds: an input tree-shaken to nothing is imported but not shipped.
    const held = Object.values(metafile.outputs).flatMap((o) => Object.entries(o.inputs)).filter(([, i]) => i.bytesInOutput > 0).map(([input]) => input);
    for (const input of held) {
      const dir = packageDirOf(input);
      if (dir === undefined) continue;
      if (!byDir.has(dir)) byDir.set(dir, new Set());
      byDir.get(dir).add(bundle);
    }
  }
  const packages = [...byDir].map(([dir, bundles]) => {
    const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
    return { name: manifest.name, version: manifest.version, license: manifest.license, text: licenceText(dir, manifest), bundles: [...bundles].sort() };
  });
  return packages.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The notices file's text for `packages` (bundledPackages). */
export function noticesText(packages) {
  const rule = '='.repeat(100);
  const head = `Refactor Browser includes the following third-party software. Each package's licence follows
its name, version and the bundles that contain it.\n`;
  const sections = packages.map((p) => `${rule}\n${p.name} ${p.version} (${p.license})\nIn: ${p.bundles.join(', ')}\n${rule}\n\n${p.text}\n`);
  return `${head}\n${sections.join('\n')}`;
}

/**
 * Files the build copies beside the bundles from packages: the folder they are copied into, and the
 * package each comes from.
 */
export const COPIED_PACKAGES = [
  { dir: packageFolder('web-tree-sitter'), into: 'dist/tree-sitter' },
  { dir: packageFolder('@vscode/tree-sitter-wasm'), into: 'dist/tree-sitter' },
];

/**
 * Where Node would find package `name` from the current folder (the first `node_modules/NAME` in
 * it or a folder above it), relative to it as esbuild's metafile names its inputs: a build in a
 * copy of the project without its own node_modules (Stryker's sandbox) finds the project's.
 */
function packageFolder(name) {
  for (let dir = process.cwd(); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name);
    if (existsSync(path.join(candidate, 'package.json'))) return path.relative(process.cwd(), candidate).split(path.sep).join('/');
    if (path.dirname(dir) === dir) throw new Error(`${name} is not installed (run npm ci)`);
  }
}

/** Writes the notices for the builds' packages (and COPIED_PACKAGES) to NOTICES_FILE in the current folder; returns the packages. */
export function writeThirdPartyNotices(builds) {
  const packages = bundledPackages(builds, COPIED_PACKAGES);
  writeFileSync(NOTICES_FILE, noticesText(packages));
  return packages;
}
