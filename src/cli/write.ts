// `post`, `refactor`, `rate` and `delete`: contributions to a writable service, with the token from
// REFACTOR_BROWSER_TOKEN. What they print is what a script needs next: the new page's URL, the new
// rating, or a line saying what is gone; --json prints the object as `show` names its fields.
import * as fs from 'node:fs/promises';
import type { RefactorClient } from '../api/client';
import { codeIdOf } from '../api/urls';
import type { WriteCommand } from './args';
import { formatJson, formatRating } from './format';

export interface WriteIo {
  out: (text: string) => void;
  /** All of stdin, for FILE `-`. */
  readStdin: () => Promise<Uint8Array>;
}

/** The line for a write without a token: bad usage, with where a token comes from. */
export function tokenHint(command: WriteCommand['name']): string {
  return `${command} needs a token: set REFACTOR_BROWSER_TOKEN (the service's owner gives one with "refactor-browser users add NAME")`;
}

/** The line for a write to the built-in sample catalog, answered in this process and never changed. */
export function sampleHint(command: WriteCommand['name']): string {
  return `${command}: the built-in sample catalog takes no contributions: give --base-url (or REFACTOR_BROWSER_BASE_URL) of a writable service`;
}

export async function runWrite(command: WriteCommand, client: RefactorClient, io: WriteIo): Promise<number> {
  const json = command.global.json;
  switch (command.name) {
    case 'post': {
      const code = await readCode(command.file, io);
      const created = await client.postCode({ title: command.title, language: command.language, comment: command.comment, code, tags: command.tags });
      io.out(json ? formatJson(created.value) : `${created.url}\n`);
      return 0;
    }
    case 'refactor': {
      const code = await readCode(command.file, io);
      const created = await client.postRefactor(command.ref, { comment: command.comment, code, title: command.title });
      io.out(json ? formatJson(created.value) : `${created.url}\n`);
      return 0;
    }
    case 'rate': {
      const refactor = await client.rate(command.ref, command.refactorId, command.value);
      io.out(json ? formatJson(refactor) : `refactoring #${refactor.id} of code #${refactor.codeId}: ${formatRating(refactor)}\n`);
      return 0;
    }
    case 'delete': {
      if (command.refactorId === undefined) {
        await client.deleteCode(command.ref);
        io.out(`deleted code #${codeIdOf(command.ref)}\n`);
      } else {
        await client.deleteRefactor(command.ref, command.refactorId);
        io.out(`deleted refactoring #${command.refactorId} of code #${codeIdOf(command.ref)}\n`);
      }
      return 0;
    }
  }
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** FILE's text (`-`: stdin), which must be UTF-8: a code sent with its bytes guessed at would arrive changed. */
export async function readCode(file: string, io: Pick<WriteIo, 'readStdin'>): Promise<string> {
  const bytes = file === '-' ? await io.readStdin() : await fs.readFile(file);
  try {
    // The decoder drops a byte order mark, which is no part of the code.
    return UTF8.decode(bytes);
  } catch {
    throw new Error(`${file === '-' ? 'stdin' : file}: not UTF-8 text`);
  }
}

/** All of the process's stdin. */
export async function readProcessStdin(): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
