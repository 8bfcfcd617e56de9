// A catalog of any size, deterministic, made from the sample catalog's codes and refactorings in all
// 16 languages: `refactor-browser serve --generate N` serves one, and the benchmarks measure search
// and indexing on one of 10,000 codes with 30,000 refactorings, the size real services had.
//
// Copies of a few dozen texts would make an unreal index (a tiny vocabulary, every query matching a
// thousand identical documents), so each copy gets names of its own: a generated word in its title,
// its comment and one of its identifiers, and an author among generated users. No Math.random: the
// same size gives the same catalog, byte for byte, on every machine.
import sampleCatalogJson from './sample-catalog.json';
import { catalogLines, type CatalogFile, type CatalogFileCode, type CatalogFileRefactor, type CatalogFileUser } from '../../core/catalogFile';
import { parseDataset, type Dataset } from './dataset';

export interface GenerateOptions {
  /** How many codes (ids 1..codes, the newest last). */
  codes: number;
  /**
   * Refactorings per code (default 3), or how many a code of a given id has: a catalog whose codes
   * differ in how many they have, as the popular lists order by.
   */
  refactorsPerCode?: number | ((codeId: number) => number);
  /** Authors besides the sample's (default 500). */
  users?: number;
  /** The catalog whose codes and refactorings are copied (default: the shipped sample). */
  sample?: CatalogFile;
}

/** The most codes a generated catalog may have: the largest size measured, with room. */
export const MAX_GENERATED_CODES = 100_000;

const SAMPLE = sampleCatalogJson as CatalogFile;

/** A deterministic generator of 32-bit values (mulberry32), seeded per use. */
export function numbers(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'ru', 'ta', 'vo', 'zi', 'be', 'do', 'fa', 'gu', 'pe', 'sa', 'ti', 'xo', 'ra', 'le', 'mo', 'nu'];

/** A pronounceable word of 2 to 4 syllables. */
function word(next: () => number): string {
  const n = 2 + (next() % 3);
  let w = '';
  for (let i = 0; i < n; i++) w += SYLLABLES[next() % SYLLABLES.length];
  return w;
}

/** The first identifier of six or more characters that is not a keyword-like word, if any. */
function identifierIn(lines: readonly string[]): string | undefined {
  for (const line of lines) {
    const m = /\b[A-Za-z_][A-Za-z0-9_]{5,}\b/.exec(line);
    if (m) return m[0];
  }
  return undefined;
}

function at(start: number, minutes: number): string {
  return new Date(start + minutes * 60_000).toISOString().replace('.000Z', '+00:00');
}

/**
 * A catalog of `codes` codes, each a renamed copy of a sample code, with `refactorsPerCode`
 * refactorings each (the one generator: the service, the benchmarks and the tests all take theirs), copied from the sample's refactorings of the same code (or of a code in the same
 * language where it has none). Codes are an hour apart, newest last; refactorings follow their code,
 * a minute apart.
 */
export function generateCatalogJson(options: GenerateOptions): CatalogFile {
  const { codes: count, refactorsPerCode = 3, users: extraUsers = 500, sample = SAMPLE } = options;
  if (!Number.isInteger(count) || count < 0 || count > MAX_GENERATED_CODES) {
    throw new RangeError(`a generated catalog has 0 to ${MAX_GENERATED_CODES} codes, not ${count}`);
  }
  // One seed for every size: a catalog is then the start of every larger one (the same codes, users
  // and refactorings under the same ids), so a test can grow a service by serving a larger catalog.
  const next = numbers(0x5eed);
  const users: CatalogFileUser[] = [...sample.users];
  const firstUserId = Math.max(...sample.users.map((u) => u.id)) + 1;
  for (let i = 0; i < extraUsers; i++) {
    const name = `${capitalize(word(next))} ${capitalize(word(next))}`;
    users.push({ id: firstUserId + i, name, identityUrl: '', rating: (next() % 51) / 10 });
  }
  const refactorsOf = new Map<number, CatalogFileRefactor[]>();
  for (const r of sample.refactors) refactorsOf.set(r.codeId, [...(refactorsOf.get(r.codeId) ?? []), r]);
  const byLanguage = new Map<string, CatalogFileRefactor[]>();
  for (const c of sample.codes) byLanguage.set(c.language, [...(byLanguage.get(c.language) ?? []), ...(refactorsOf.get(c.id) ?? [])]);

  const start = Date.UTC(2008, 0, 1);
  const codes: CatalogFileCode[] = [];
  const refactors: CatalogFileRefactor[] = [];
  for (let i = 0; i < count; i++) {
    const src = sample.codes[i % sample.codes.length];
    const id = i + 1;
    const name = word(next);
    const from = identifierIn(catalogLines(src.code));
    const rename = (lines: readonly string[]): string[] =>
      (from ? lines.map((l) => l.replace(new RegExp(`\\b${from}\\b`, 'g'), `${from}_${name}`)) : [...lines]);
    const author = users[next() % users.length];
    const { permalink: _permalink, ...rest } = src;
    codes.push({
      ...rest,
      id,
      title: `${src.title}, ${name}`,
      userId: author.id,
      createdAt: at(start, i * 60),
      updatedAt: at(start, i * 60),
      comment: `${src.comment ?? ''}\n(${name} ${word(next)})`,
      code: rename(catalogLines(src.code)),
    });
    const perCode = typeof refactorsPerCode === 'function' ? refactorsPerCode(id) : refactorsPerCode;
    const pool = refactorsOf.get(src.id)?.length ? refactorsOf.get(src.id)! : (byLanguage.get(src.language) ?? []);
    for (let k = 0; k < perCode && pool.length; k++) {
      // A registered author: the catalog then takes the name from the user, and holds no copy of it.
      const { userName: _name, userWebsite: _website, ...r } = pool[(k + Math.floor(i / sample.codes.length)) % pool.length];
      const by = users[next() % users.length];
      const votes = next() % 12;
      refactors.push({
        ...r,
        id: refactors.length + 1,
        codeId: id,
        userId: by.id,
        title: `${r.title ?? ''} ${word(next)}`,
        rating: votes === 0 ? 0 : 1 + (next() % 5),
        ratingsCount: votes,
        createdAt: at(start, i * 60 + 1 + k),
        comment: r.comment,
        code: rename(catalogLines(r.code)),
      });
    }
  }
  return { users, codes, refactors };
}

/** The same catalog, parsed and ready to serve. */
export function generateCatalog(options: GenerateOptions): Dataset {
  return parseDataset(generateCatalogJson(options), `generated catalog of ${options.codes} codes`);
}

function capitalize(w: string): string {
  return w.charAt(0).toUpperCase() + w.slice(1);
}
