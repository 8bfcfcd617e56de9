// The reference service's dataset: a catalog file (JSON: users, codes and refactorings; format in
// src/server/README.md, `serve --catalog FILE`) validated as a whole and resolved once into an
// immutable Dataset with its derived counts, its users map and every listing already sorted, so
// requests only slice. ("Catalog" in the extension's code is the Catalog view.) No Node module here,
// so the sample catalog loads wherever the extension runs; reading a file is datasetFile.ts.

import { canonicalServiceLanguage, isServiceLanguage, SERVICE_LANGUAGES } from '../../core/languages';
import { DatasetError, EntryReader, type Timestamp } from './datasetFields';

export { DatasetError, type Timestamp } from './datasetFields';

export interface DatasetUser {
  readonly id: number;
  readonly name: string;
  readonly identityUrl: string;
  readonly rating: number;
  readonly website: string;
  /** Derived: how many refactorings this user wrote. */
  readonly refactorsCount: number;
}

export interface DatasetRefactor {
  readonly id: number;
  readonly codeId: number;
  readonly title: string;
  /** Derived: the language of the code it refactors, as the service spells it in lists. */
  readonly language: string;
  readonly code: string;
  readonly comment: string;
  readonly createdAt: Timestamp;
  readonly rating: number;
  readonly ratingsCount: number;
  /** null for an anonymous author. */
  readonly userId: number | null;
  /** The registered author's name, or the anonymous author's own. */
  readonly userName: string;
  readonly userWebsite: string;
  /** The registered author; absent for anonymous ones. */
  readonly user?: DatasetUser;
}

export interface DatasetCode {
  readonly id: number;
  readonly title: string;
  readonly language: string;
  readonly permalink: string;
  readonly code: string;
  readonly comment: string;
  readonly createdAt: Timestamp;
  readonly updatedAt: Timestamp;
  readonly trackbackUrl: string;
  readonly userId: number;
  readonly user: DatasetUser;
  readonly tags: readonly string[];
  /** Its refactorings, oldest first, the order a discussion is read in. */
  readonly refactors: readonly DatasetRefactor[];
  /** Derived: `refactors.length`. */
  readonly refactorsCount: number;
  /** Where `mine` found it (catalog field `mined`); absent for any other code. */
  readonly mined?: MinedOrigin;
}

/** A mined code's origin, by which an import knows it again. */
export interface MinedOrigin {
  readonly commit: string;
  readonly path: string;
  readonly function: string;
}

/** One sorted listing, whole and split by language (keys: lower-case language names). */
export interface Listing<T> {
  readonly all: readonly T[];
  readonly byLanguage: ReadonlyMap<string, readonly T[]>;
}

export interface DatasetTag {
  /** The spelling the catalog used first. */
  readonly name: string;
  /** Most recent first. */
  readonly codes: Listing<DatasetCode>;
}

export interface Dataset {
  /** Where it came from, for messages: a file name or `sample catalog`. */
  readonly source: string;
  readonly users: ReadonlyMap<number, DatasetUser>;
  readonly codes: ReadonlyMap<number, DatasetCode>;
  /** Created-at descending, ties by id descending. */
  readonly recentCodes: Listing<DatasetCode>;
  /** Most refactorings first, ties as in recentCodes. */
  readonly popularCodes: Listing<DatasetCode>;
  /** Created-at descending, ties by id descending. */
  readonly recentRefactors: Listing<DatasetRefactor>;
  /** Keyed by the lower-case tag name: tags match case-insensitively. */
  readonly tags: ReadonlyMap<string, DatasetTag>;
  /** The languages some code is in, in SERVICE_LANGUAGES order. */
  readonly languages: readonly string[];
}

/**
 * The key a language is looked up by: `ruby`, `Ruby` and `RUBY` are one language, and so are a name
 * and its URL slug (`C#`, `c#` and `cs`; `VB.NET` and `vb`).
 */
export function languageKey(name: string): string {
  return canonicalServiceLanguage(name).toLowerCase();
}

/** Validates and resolves a parsed JSON catalog; throws DatasetError on the first problem found. */
export function parseDataset(json: unknown, source: string): Dataset {
  const top = EntryReader.of(source, 'catalog', json);
  const list = (field: string): unknown[] => {
    const v = top.has(field) ? (json as Record<string, unknown>)[field] : undefined;
    if (!Array.isArray(v)) throw new DatasetError(source, undefined, field, 'must be an array');
    return v;
  };
  const rawUsers = list('users');
  const rawCodes = list('codes');
  const rawRefactors = list('refactors');
  top.rejectUnknown();

  const userEntries = new Map<number, { reader: EntryReader; fields: Omit<DatasetUser, 'refactorsCount'> }>();
  rawUsers.forEach((raw, i) => {
    const r: EntryReader = entryWithId(source, 'users', i, raw, userEntries);
    const fields = {
      id: r.id('id'),
      name: r.string('name', { nonEmpty: true }),
      identityUrl: r.string('identityUrl'),
      rating: r.float('rating'),
      website: r.string('website', { optional: true }),
    };
    r.rejectUnknown();
    userEntries.set(fields.id, { reader: r, fields });
  });

  const codeEntries = new Map<number, { reader: EntryReader; fields: Omit<DatasetCode, 'user' | 'refactors' | 'refactorsCount'> }>();
  const origins = new Map<string, EntryReader>();
  rawCodes.forEach((raw, i) => {
    const r: EntryReader = entryWithId(source, 'codes', i, raw, codeEntries);
    const title = r.string('title', { nonEmpty: true });
    const fields = {
      id: r.id('id'),
      title,
      language: canonicalLanguage(r),
      permalink: r.permalink('permalink', title),
      userId: r.id('userId'),
      createdAt: r.datetime('createdAt'),
      updatedAt: r.datetime('updatedAt'),
      comment: r.string('comment', { optional: true }),
      trackbackUrl: r.string('trackbackUrl', { optional: true }),
      tags: r.stringList('tags'),
      code: r.text('code', { nonEmpty: true }),
    };
    const mined = r.minedOrigin('mined');
    r.rejectUnknown();
    if (!userEntries.has(fields.userId)) r.fail('userId', `names no user (no user has id ${fields.userId})`);
    if (fields.updatedAt.date < fields.createdAt.date) r.fail('updatedAt', 'is before createdAt');
    if (mined) {
      // An import knows a mined code by its origin: two codes of one origin would be one code twice.
      const key = `${mined.commit}\n${mined.path}\n${mined.function}`;
      const first = origins.get(key);
      if (first) r.fail('mined', `repeats the origin of ${first.entry}: the same function at the same commit`);
      origins.set(key, r);
    }
    codeEntries.set(fields.id, { reader: r, fields: mined ? { ...fields, mined } : fields });
  });

  type RefactorFields = Omit<DatasetRefactor, 'language' | 'user' | 'userName' | 'userWebsite'> & { userName: string; userWebsite: string };
  const refactorEntries = new Map<number, { reader: EntryReader; fields: RefactorFields }>();
  rawRefactors.forEach((raw, i) => {
    const r: EntryReader = entryWithId(source, 'refactors', i, raw, refactorEntries);
    const userId = r.nullableId('userId');
    const fields: RefactorFields = {
      id: r.id('id'),
      codeId: r.id('codeId'),
      userId,
      // A registered author's name and website come from the user: storing them twice could disagree.
      userName: userId === null ? r.string('userName') : noStoredCopy(r, 'userName'),
      userWebsite: userId === null ? r.string('userWebsite', { optional: true }) : noStoredCopy(r, 'userWebsite'),
      title: r.string('title', { optional: true }),
      rating: r.count('rating'),
      ratingsCount: r.count('ratingsCount'),
      createdAt: r.datetime('createdAt'),
      comment: r.string('comment', { optional: true }),
      // A refactoring may be a comment alone, as the original service allowed.
      code: r.text('code'),
    };
    r.rejectUnknown();
    if (fields.code.trim() === '' && fields.comment.trim() === '') r.fail('code', 'must not be empty when "comment" is');
    const code = codeEntries.get(fields.codeId);
    if (!code) r.fail('codeId', `names no code (no code has id ${fields.codeId})`);
    if (userId !== null && !userEntries.has(userId)) r.fail('userId', `names no user (no user has id ${userId})`);
    if (fields.createdAt.date < code.fields.createdAt.date) {
      r.fail('createdAt', `is before the createdAt of code ${fields.codeId} (${code.fields.createdAt.text})`);
    }
    refactorEntries.set(fields.id, { reader: r, fields });
  });

  return resolve(source, userEntries, codeEntries, refactorEntries);
}

function resolve(
  source: string,
  userEntries: Map<number, { fields: Omit<DatasetUser, 'refactorsCount'> }>,
  codeEntries: Map<number, { fields: Omit<DatasetCode, 'user' | 'refactors' | 'refactorsCount'> }>,
  refactorEntries: Map<number, { fields: Omit<DatasetRefactor, 'language' | 'user'> }>,
): Dataset {
  const authored = new Map<number, number>();
  for (const { fields } of refactorEntries.values()) {
    if (fields.userId !== null) authored.set(fields.userId, (authored.get(fields.userId) ?? 0) + 1);
  }
  const users = new Map<number, DatasetUser>();
  for (const { fields } of userEntries.values()) {
    users.set(fields.id, Object.freeze({ ...fields, refactorsCount: authored.get(fields.id) ?? 0 }));
  }

  const refactorsOf = new Map<number, DatasetRefactor[]>();
  const refactors: DatasetRefactor[] = [];
  for (const { fields } of refactorEntries.values()) {
    const user = fields.userId === null ? undefined : users.get(fields.userId)!;
    const refactor: DatasetRefactor = Object.freeze({
      ...fields,
      language: codeEntries.get(fields.codeId)!.fields.language,
      userName: user ? user.name : fields.userName,
      userWebsite: user ? user.website : fields.userWebsite,
      ...(user ? { user } : {}),
    });
    refactors.push(refactor);
    const siblings = refactorsOf.get(fields.codeId) ?? [];
    siblings.push(refactor);
    refactorsOf.set(fields.codeId, siblings);
  }

  const codes = new Map<number, DatasetCode>();
  for (const { fields } of codeEntries.values()) {
    const own = (refactorsOf.get(fields.id) ?? []).sort((a, b) => -newestFirst(a, b));
    codes.set(
      fields.id,
      Object.freeze({ ...fields, tags: Object.freeze([...fields.tags]), user: users.get(fields.userId)!, refactors: Object.freeze(own), refactorsCount: own.length }),
    );
  }

  const recent = [...codes.values()].sort(newestFirst);
  const popular = [...codes.values()].sort((a, b) => b.refactorsCount - a.refactorsCount || newestFirst(a, b));
  const tagged = new Map<string, { name: string; codes: DatasetCode[] }>();
  for (const code of recent) {
    for (const tag of code.tags) {
      const entry = tagged.get(tag.toLowerCase()) ?? { name: tag, codes: [] };
      entry.codes.push(code);
      tagged.set(tag.toLowerCase(), entry);
    }
  }
  const present = new Set(recent.map((c) => c.language));
  return Object.freeze({
    source,
    users,
    codes,
    recentCodes: listing(recent),
    popularCodes: listing(popular),
    recentRefactors: listing(refactors.sort(newestFirst)),
    tags: new Map([...tagged].map(([key, t]) => [key, Object.freeze({ name: t.name, codes: listing(t.codes) })])),
    languages: SERVICE_LANGUAGES.filter((l) => present.has(l)),
  });
}

function listing<T extends { language: string }>(all: T[]): Listing<T> {
  const byLanguage = new Map<string, T[]>();
  for (const item of all) {
    const key = languageKey(item.language);
    const items = byLanguage.get(key) ?? [];
    items.push(item);
    byLanguage.set(key, items);
  }
  return Object.freeze({ all: Object.freeze(all), byLanguage });
}

function newestFirst(a: { id: number; createdAt: Timestamp }, b: { id: number; createdAt: Timestamp }): number {
  return b.createdAt.date.getTime() - a.createdAt.date.getTime() || b.id - a.id;
}

/** Reads the id first so every later message can name the entry by it, and rejects a repeated id. */
function entryWithId(source: string, kind: string, index: number, raw: unknown, seen: Map<number, { reader: EntryReader }>): EntryReader {
  const r = EntryReader.of(source, `${kind}[${index}]`, raw);
  const id = r.id('id');
  const first = seen.get(id);
  if (first) r.fail('id', `repeats the id of ${first.reader.entry}`);
  r.entry = `${kind}[${index}] (id ${id})`;
  return r;
}

function canonicalLanguage(r: EntryReader): string {
  const name = r.string('language', { nonEmpty: true });
  if (!isServiceLanguage(name)) r.fail('language', `must be one of ${SERVICE_LANGUAGES.join(', ')}`);
  return canonicalServiceLanguage(name);
}

function noStoredCopy(r: EntryReader, field: string): string {
  if (r.has(field)) r.fail(field, 'must be left out for a registered author (it comes from the user)');
  return '';
}
