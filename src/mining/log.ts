// A repository's history as `git log` tells it (LOG_ARGS): each commit with its parents, author's
// name, date, message, and the files it changed with their blobs before and after. Nothing here runs
// git: the command line does (src/cli/mine.ts), and tests hand it texts.

export interface FileChange {
  /** `M` for a file changed in place; `A`, `D`, `T`… otherwise (renames come as a delete and an add). */
  status: string;
  path: string;
  /** The blob before and after (all zeros where there is none). */
  before: string;
  after: string;
}

export interface Commit {
  hash: string;
  parents: string[];
  /** The author's name: never their e-mail address. */
  author: string;
  /** The author's date, ISO 8601 with its offset. */
  date: string;
  message: string;
  changes: FileChange[];
}

const RECORD = '\x1e';
const FIELD = '\x1f';

/**
 * What `git log` is run with (then --max-count, --since, --until and the paths): merges left out,
 * renames as a delete and an add (a function that moved file is not the same function here), full
 * blob ids, and separators no message holds.
 */
export const LOG_ARGS = ['log', '--no-merges', '--no-renames', '--raw', '--no-abbrev', '-z', '--no-color', '--no-ext-diff',
  `--format=${RECORD}%H${FIELD}%P${FIELD}%an${FIELD}%aI${FIELD}%B${FIELD}`];

export class LogFormatError extends Error {}

/** The commits of LOG_ARGS's output, newest first as git gives them. */
export function parseLog(text: string): Commit[] {
  const commits: Commit[] = [];
  for (const record of text.split(RECORD)) {
    if (record === '') continue;
    const fields = record.split(FIELD);
    if (fields.length < 6) throw new LogFormatError(`git log gave a record of ${fields.length} fields, not 6`);
    const [hash, parents, author, date] = fields;
    const message = fields.slice(4, -1).join(FIELD);
    const raw = fields[fields.length - 1];
    if (!/^[0-9a-f]{40,64}$/.test(hash)) throw new LogFormatError(`git log gave "${hash.slice(0, 80)}" for a commit's hash`);
    commits.push({ hash, parents: parents.split(' ').filter((p) => p !== ''), author, date, message: message.trim(), changes: changesOf(raw) });
  }
  return commits;
}

/** `:100644 100644 OLD NEW M\0path\0`, repeated, after the header's own NUL and newline. */
function changesOf(raw: string): FileChange[] {
  const parts = raw.replace(/^\0?\n?/, '').split('\0');
  const changes: FileChange[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const meta = /^:\d+ \d+ ([0-9a-f]+) ([0-9a-f]+) ([A-Z])\d*$/.exec(parts[i].trim());
    if (!meta) throw new LogFormatError(`git log gave "${parts[i].slice(0, 80)}" for a changed file`);
    changes.push({ before: meta[1], after: meta[2], status: meta[3], path: parts[i + 1] });
  }
  return changes;
}
