// package.json as VS Code reads it: every `%key%` string replaced by its text in package.nls.json (or
// package.nls.<language>.json, falling back to English for a key it lacks, as VS Code does).
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '../../..');

export function readJson(file: string): unknown {
  return JSON.parse(readFileSync(path.join(ROOT, file), 'utf8'));
}

/** The placeholders package.json uses, in the order they appear. */
export function placeholders(): string[] {
  return [...readFileSync(path.join(ROOT, 'package.json'), 'utf8').matchAll(/"%([^%"]+)%"/g)].map((m) => m[1]);
}

export function localizedManifest<T>(language?: string): T {
  const english = readJson('package.nls.json') as Record<string, string>;
  const local = language ? (readJson(`package.nls.${language}.json`) as Record<string, string>) : {};
  const replace = (v: unknown): unknown => {
    if (typeof v === 'string') {
      const m = /^%([^%]+)%$/.exec(v);
      if (!m) return v;
      const text = Object.hasOwn(local, m[1]) ? local[m[1]] : english[m[1]];
      if (text === undefined) throw new Error(`package.nls.json has no ${m[1]}`);
      return text;
    }
    if (Array.isArray(v)) return v.map(replace);
    if (typeof v === 'object' && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, replace(x)]));
    return v;
  };
  return replace(readJson('package.json')) as T;
}
