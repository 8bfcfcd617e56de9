// The mined rewrites as a catalog file, the format `serve --catalog` serves and `import` takes: each
// rewrite a code (the function before) with one refactoring (the function after). People are named
// by the name git gives their commits, one person per name, never by an e-mail address; a code and
// its refactoring both name the commit's author (who wrote the version before would take a blame of
// every function). Each code says where it was mined from (`mined`: commit, path and function), by
// which `import` knows it when the same history is mined and imported again.
import { isXmlChar, MAX_COMMENT_CHARS, MAX_TAG_CHARS, MAX_TITLE_CHARS } from '../core/writeContract';
import type { CatalogFile } from '../core/catalogFile';
import type { Mined } from './miner';

/** The tag every mined code carries. */
export const MINED_TAG = 'mined';

/**
 * `text` without the characters XML cannot carry, cut to `max` UTF-16 units with an ellipsis when
 * cut, never inside a character (half of one is a character XML cannot carry).
 */
function bounded(text: string, max: number): string {
  const chars = [...xmlOnly(text)];
  const whole = chars.join('');
  if (whole.length <= max) return whole;
  let cut = '';
  for (const c of chars) {
    if (cut.length + c.length > max - 1) break;
    cut += c;
  }
  return `${cut}…`;
}

/** `text` without the characters XML cannot carry (which a catalog file may not hold). */
function xmlOnly(text: string): string {
  return [...text].filter((c) => isXmlChar(c.codePointAt(0)!)).join('');
}

/** The tag of a path's top folder (`lib` of `lib/router/index.js`), made of what a tag may hold; none for a file at the top. */
function folderTag(path: string): string | undefined {
  const slash = path.indexOf('/');
  if (slash <= 0) return undefined;
  const tag = path.slice(0, slash).replace(/[\s,]+/g, '-').slice(0, MAX_TAG_CHARS);
  return tag === '' || tag === MINED_TAG ? undefined : tag;
}

/** The catalog of `mined`, in the order given (ids from 1). */
export function minedCatalog(mined: readonly Mined[]): CatalogFile {
  const catalog: CatalogFile = { users: [], codes: [], refactors: [] };
  const people = new Map<string, number>();
  for (const [i, m] of mined.entries()) {
    const name = bounded(m.commit.author.trim(), MAX_TITLE_CHARS) || 'unknown';
    let userId = people.get(name);
    if (userId === undefined) {
      userId = people.size + 1;
      people.set(name, userId);
      catalog.users.push({ id: userId, name, identityUrl: '', rating: 0, website: '' });
    }
    const id = i + 1;
    const subject = m.commit.message.split('\n')[0].trim();
    const folder = folderTag(m.path);
    catalog.codes.push({
      id,
      title: bounded(`${m.name} in ${m.path}`, MAX_TITLE_CHARS) || m.path,
      language: m.language,
      userId,
      createdAt: m.commit.date,
      updatedAt: m.commit.date,
      comment: bounded(`${m.path} before commit ${m.commit.hash} (${m.commit.date})`, MAX_COMMENT_CHARS),
      tags: folder ? [MINED_TAG, folder] : [MINED_TAG],
      code: m.before,
      // What an import knows the code by when the same history is mined and imported again.
      mined: { commit: m.commit.hash, path: xmlOnly(m.path), function: xmlOnly(m.name) },
    });
    catalog.refactors.push({
      id,
      codeId: id,
      userId,
      title: bounded(subject, MAX_TITLE_CHARS),
      rating: 0,
      ratingsCount: 0,
      createdAt: m.commit.date,
      comment: bounded(m.commit.message, MAX_COMMENT_CHARS),
      code: m.after,
    });
  }
  return catalog;
}
