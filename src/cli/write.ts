// `post`, `refactor`, `rate` and `delete`: contributions to a writable service, with the token from
// REFACTOR_BROWSER_TOKEN. What they print is what a script needs next: the new page's URL, the new
// rating, or a line saying what is gone; --json prints the object as `show` names its fields.
import * as fs from 'node:fs/promises';
import type { RefactorClient } from '../client/client';
import { codeIdOf } from '../client/urls';
import type { WriteCommand } from './args';
import { authorOf } from '../core/names';
import { plural } from '../core/plural';
import { formatJson, formatRating, stripControls } from './format';
import { readProcessStdin, type Io } from './io';

/** What `delete` does when the person asked does not say yes: nothing, said in one line (exit 1). */
export class NotConfirmed extends Error {
  override readonly name = 'NotConfirmed';
}

/** The line for a write without a token: bad usage, with where a token comes from. */
export function tokenHint(command: WriteCommand['name']): string {
  return `${command} needs a token: set REFACTOR_BROWSER_TOKEN (the service's owner gives one with "refactor-browser users add NAME")`;
}

/** The line for a write to the built-in sample catalog, answered in this process and never changed. */
export function sampleHint(command: WriteCommand['name']): string {
  return `${command}: the built-in sample catalog takes no contributions: give --base-url (or REFACTOR_BROWSER_BASE_URL) of a writable service`;
}

export async function runWrite(command: WriteCommand, client: RefactorClient, io: Pick<Io, 'out' | 'readStdin' | 'ask'>): Promise<number> {
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
      if (!command.yes && io.ask) {
        const answer = await io.ask(await deleteQuestion(command, client));
        if (!/^\s*y(es)?\s*$/i.test(answer)) throw new NotConfirmed('nothing deleted');
      }
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

/**
 * The question `delete` asks: what will be gone, named as the service names it (the code's title
 * and how many refactorings go with it, or the refactoring's author), so a mistyped id shows before
 * anything is deleted. A code that does not exist fails here, with the client's one line.
 */
async function deleteQuestion(command: Extract<WriteCommand, { name: 'delete' }>, client: RefactorClient): Promise<string> {
  const code = await client.code(command.ref);
  const title = `"${stripControls(code.title)}"`;
  if (command.refactorId === undefined) {
    const along = code.refactorsCount ? ` and its ${plural(code.refactorsCount, 'refactoring')}` : '';
    return `Delete code #${code.id} ${title}${along}? [y/N] `;
  }
  const refactor = code.refactors?.find((r) => r.id === command.refactorId);
  const by = refactor ? ` by ${stripControls(authorOf(refactor))}` : '';
  return `Delete refactoring #${command.refactorId}${by} of code #${code.id} ${title}? [y/N] `;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** FILE's text (`-`: stdin), which must be UTF-8: a code sent with its bytes guessed at would arrive changed. */
export async function readCode(file: string, io: Pick<Io, 'readStdin'>): Promise<string> {
  const bytes = file === '-' ? await (io.readStdin ?? readProcessStdin)() : await fs.readFile(file);
  try {
    // The decoder drops a byte order mark, which is no part of the code.
    return UTF8.decode(bytes);
  } catch {
    throw new Error(`${file === '-' ? 'stdin' : file}: not UTF-8 text`);
  }
}
