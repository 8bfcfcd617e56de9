// The TypeScript files under a folder, for tests that hold a rule over every source file.
import { readdirSync } from 'node:fs';
import * as path from 'node:path';

/** Every `.ts` file below `dir`, as absolute paths, in a stable order. */
export function typeScriptFilesUnder(dir: string): string[] {
  return (readdirSync(dir, { recursive: true }) as string[])
    .filter((f) => f.endsWith('.ts'))
    .sort()
    .map((f) => path.join(dir, f));
}
