// Typed readers for one catalog entry's fields. Each failure is a DatasetError naming the file, the
// entry and the field, so a self-hoster can fix a catalog from the message alone.

import { codePointLabel, firstNonXmlChar } from '../../core/writeContract';

/** A catalog that cannot be served. `message` is one line: `<file>: <entry>: "<field>" <problem>`. */
export class DatasetError extends Error {
  override readonly name = 'DatasetError';
  constructor(
    readonly source: string,
    /** e.g. `codes[3] (id 12)`; absent for problems with the file as a whole. */
    readonly entry: string | undefined,
    /** e.g. `language`; absent when the problem is not one field's. */
    readonly field: string | undefined,
    readonly problem: string,
  ) {
    super([source, entry, field === undefined ? problem : `"${field}" ${problem}`].filter((p) => p !== undefined).join(': '));
  }
}

/** A datetime that keeps the offset the catalog wrote it with, as the service shows each entry's own. */
export interface Timestamp {
  readonly date: Date;
  /** `YYYY-MM-DDThh:mm:ss±hh:mm`, exactly as rendered (`Z` in the catalog becomes `+00:00`). */
  readonly text: string;
}

const DATETIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(Z|([+-])(\d{2}):(\d{2}))$/;
const PERMALINK = /^[a-z0-9]+(-[a-z0-9]+)*$/;
/** A commit's hash as git writes it: SHA-1 (40) or SHA-256 (64), abbreviated to 7 at the least. */
const COMMIT = /^[0-9a-f]{7,64}$/;

/** Reads the fields of one JSON object, remembering which ones were read to reject unknown keys. */
export class EntryReader {
  private readonly seen = new Set<string>();

  constructor(
    private readonly source: string,
    public entry: string,
    private readonly obj: Record<string, unknown>,
  ) {}

  static of(source: string, entry: string, value: unknown): EntryReader {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new DatasetError(source, entry, undefined, 'must be an object');
    }
    return new EntryReader(source, entry, value as Record<string, unknown>);
  }

  fail(field: string | undefined, problem: string): never {
    throw new DatasetError(this.source, this.entry, field, problem);
  }

  has(field: string): boolean {
    this.seen.add(field);
    return this.obj[field] !== undefined;
  }

  private raw(field: string): unknown {
    this.seen.add(field);
    return this.obj[field];
  }

  /** A positive whole number that fits a double exactly: ids and references to ids. */
  id(field: string): number {
    const v = this.raw(field);
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 1) this.fail(field, 'must be a whole number of at least 1');
    return v;
  }

  nullableId(field: string): number | null {
    return this.raw(field) === null ? null : this.id(field);
  }

  count(field: string): number {
    const v = this.raw(field);
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) this.fail(field, 'must be a whole number of at least 0');
    return v;
  }

  float(field: string): number {
    const v = this.raw(field);
    if (typeof v !== 'number' || !Number.isFinite(v)) this.fail(field, 'must be a number');
    return v;
  }

  string(field: string, opts: { nonEmpty?: boolean; optional?: boolean } = {}): string {
    const v = this.raw(field);
    if (v === undefined && opts.optional) return '';
    if (typeof v !== 'string') this.fail(field, opts.nonEmpty ? 'must be a non-empty string' : 'must be a string');
    if (opts.nonEmpty && v.trim() === '') this.fail(field, 'must be a non-empty string');
    this.checkChars(field, v);
    return v;
  }

  /** Source text: a string, or an array of lines joined with `\n` (a trailing "" gives a final newline). */
  text(field: string, opts: { nonEmpty?: boolean } = {}): string {
    const v = this.raw(field);
    let text: string;
    if (typeof v === 'string') {
      text = v;
    } else if (Array.isArray(v)) {
      v.forEach((line, i) => {
        if (typeof line !== 'string') this.fail(`${field}[${i}]`, 'must be a string');
        if (/[\r\n]/.test(line)) this.fail(`${field}[${i}]`, 'must be one line (no line breaks inside an array item)');
      });
      text = v.join('\n');
    } else {
      this.fail(field, 'must be a string or an array of lines');
    }
    if (opts.nonEmpty && text.trim() === '') this.fail(field, 'must not be empty');
    this.checkChars(field, text);
    return text;
  }

  stringList(field: string): string[] {
    const v = this.raw(field);
    if (v === undefined) return [];
    if (!Array.isArray(v)) this.fail(field, 'must be an array of strings');
    const seen = new Set<string>();
    return v.map((item, i) => {
      const name = `${field}[${i}]`;
      if (typeof item !== 'string' || item.trim() !== item || item === '') {
        this.fail(name, 'must be a non-empty string without surrounding spaces');
      }
      this.checkChars(name, item);
      if (seen.has(item.toLowerCase())) this.fail(name, `repeats "${item}"`);
      seen.add(item.toLowerCase());
      return item;
    });
  }

  datetime(field: string): Timestamp {
    const v = this.raw(field);
    const m = typeof v === 'string' ? DATETIME.exec(v) : null;
    if (!m) this.fail(field, 'must be a datetime like 2008-03-14T09:26:53+01:00');
    const [, y, mo, d, h, mi, s, zone, sign, oh, om] = m;
    const offsetMinutes = zone === 'Z' ? 0 : (sign === '-' ? -1 : 1) * (Number(oh) * 60 + Number(om));
    const local = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
    // Date.UTC rolls 2008-02-30 over into March (and reads years 0 to 99 as 1900 to 1999); writing the
    // result back and comparing catches impossible dates and times, any part of them.
    const check = new Date(local).toISOString().slice(0, 19);
    if (check !== `${y}-${mo}-${d}T${h}:${mi}:${s}` || Number(oh ?? 0) > 23 || Number(om ?? 0) > 59) {
      this.fail(field, `is not a real date and time: ${v as string}`);
    }
    const text = zone === 'Z' ? `${(v as string).slice(0, 19)}+00:00` : (v as string);
    return { date: new Date(local - offsetMinutes * 60_000), text };
  }

  permalink(field: string, title: string): string {
    if (!this.has(field)) return permalinkOf(title);
    const v = this.string(field);
    if (!PERMALINK.test(v)) this.fail(field, 'must be lower-case words joined by hyphens, e.g. sum-an-array');
    return v;
  }

  /** A mined code's origin, `{ commit, path, function }` (`mine` writes it), or undefined when left out. */
  minedOrigin(field: string): { commit: string; path: string; function: string } | undefined {
    if (!this.has(field)) return undefined;
    const v = this.raw(field);
    if (typeof v !== 'object' || v === null || Array.isArray(v)) this.fail(field, 'must be an object');
    const obj = v as Record<string, unknown>;
    const part = (name: string): string => {
      const s = obj[name];
      if (typeof s !== 'string' || s.trim() === '') this.fail(`${field}.${name}`, 'must be a non-empty string');
      this.checkChars(`${field}.${name}`, s);
      return s;
    };
    const origin = { commit: part('commit'), path: part('path'), function: part('function') };
    if (!COMMIT.test(origin.commit)) this.fail(`${field}.commit`, "must be a commit's hash (7 to 64 of 0-9 and a-f)");
    const unknown = Object.keys(obj).find((key) => !(key in origin));
    if (unknown !== undefined) this.fail(`${field}.${unknown}`, 'is not a known field');
    return origin;
  }

  /** Called once every known field was read: a misspelt field would otherwise be silently ignored. */
  rejectUnknown(): void {
    for (const key of Object.keys(this.obj)) {
      if (!this.seen.has(key)) this.fail(key, 'is not a known field');
    }
  }

  private checkChars(field: string, v: string): void {
    // Stored, such a character (a lone surrogate too) would make every response holding the entry unreadable.
    const cp = firstNonXmlChar(v);
    if (cp !== undefined) this.fail(field, `holds ${codePointLabel(cp)}, a character XML 1.0 cannot carry`);
  }
}

/** Lower-case ASCII words joined by hyphens, accents folded: "Café au lait!" -> "cafe-au-lait". */
export function permalinkOf(title: string): string {
  const words = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== '');
  return words.length > 0 ? words.join('-') : 'code';
}
