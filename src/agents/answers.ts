// What the tools for agents (the extension's language model tools, `refactor-browser mcp`) answer:
// search hits and a code with its refactorings as Markdown a model reads, bounded in size. No
// `vscode` and no Node import: both extension hosts and the CLI bundle it. The words are English,
// as models read them best; the model answers the person in their own language.
import { highlightJsLanguage } from '../core/languages';
import type { Code, Refactor } from '../core/model';
import { authorOf, titleOf } from '../core/names';
import { ratingPhrase, sortRefactorings } from '../core/ratings';
import { codeRefOf, codeUrl, pageUrl } from '../client/urls';
import { isSampleAddress } from '../core/sample';
import type { SearchHit } from '../search/searchIndex';
import { plural } from '../core/plural';

/** The most characters an answer holds; what does not fit is left out, and the answer says what. */
export const MAX_ANSWER_CHARS = 8000;

export interface SearchAnswerInput {
  query: string;
  hits: readonly SearchHit[];
  /** The service's base address: each hit gets its page URL. */
  baseUrl: string;
  /** The language searched in, if one was asked for. */
  language?: string;
  /** What the index holds, said with the answer so that "no matches" can be weighed. */
  counts?: { codes: number; refactors: number };
  /** A sentence to add, e.g. that the index could not be brought up to date. */
  note?: string;
  /** How the other tool is called, to say how to read a hit whole (`get_code`, `#getCode`). */
  codeTool?: string;
}

/** A numbered list of the hits with their ids, titles, languages, authors, page URLs and best lines. */
export function searchAnswer(input: SearchAnswerInput, maxChars = MAX_ANSWER_CHARS): string {
  const where = input.language ? ` in ${oneLine(input.language)}` : '';
  const among = input.counts ? ` among ${input.counts.codes} codes and ${input.counts.refactors} refactorings` : '';
  const head = input.hits.length === 0
    ? `No matches for "${oneLine(input.query)}"${where}${among}.`
    : `${plural(input.hits.length, 'match', 'matches')} for "${oneLine(input.query)}"${where}${among}, best first.`;
  const tail = [
    input.note ? oneLine(input.note) : '',
    input.hits.length > 0 && input.codeTool ? `Read a code with its refactorings by its id with ${input.codeTool}.` : '',
  ].filter(Boolean);
  const items = input.hits.map((h, i) => hitText(h, i + 1, input.baseUrl));
  return bounded([head], items, tail, maxChars, (left) => `${plural(left, 'more match', 'more matches')} left out to keep this answer short: ask with a narrower query or a lower limit.`);
}

/**
 * The code's id, title, language, author and page URL, its comment and code, then its refactorings
 * best rated first, each with its rating and votes. Refactorings that do not fit are left out, and
 * a code too long to fit is cut, both said in the answer.
 */
export function codeAnswer(code: Code, baseUrl: string, maxChars = MAX_ANSWER_CHARS): string {
  const page = pageOf(baseUrl, codeRefOf(code));
  const refactors = sortRefactorings(code.refactors ?? [], 'bestRated');
  const head = [
    `# Code #${code.id}: ${oneLine(titleOf(code))}`,
    [
      `- language: ${oneLine(code.language) || 'unknown'}`,
      `- author: ${oneLine(authorOf(code))}`,
      `- page: ${page ?? NO_PAGES}`,
      `- refactorings: ${refactors.length}${refactors.length > 1 ? ', best rated first' : ''}`,
    ].join('\n'),
    ...comment(code.comment, MAX_COMMENT_CHARS),
  ];
  const tail = refactors.length === 0 ? ['No refactorings yet.'] : [];
  const items = [
    (room: number) => fenced(code.code, code.language, room),
    ...refactors.map((r) => (room: number) => refactorText(r, code.language, room)),
  ];
  // The code itself is left out only when the bound is too small for anything: count refactorings.
  return bounded(head, items, tail, maxChars, (left) =>
    `${plural(Math.min(left, refactors.length), 'more refactoring', 'more refactorings')} left out to keep this answer short${page ? `; the page lists them all: ${page}` : ''}`);
}

/** A code found like the one given, with its best refactoring and, where it adapts, that refactoring in the given code's names. */
export interface SimilarMatchInput {
  code: Code;
  /** 0 to 1. */
  similarity: number;
  /** False where the language has no grammar: compared by its words alone. */
  certain: boolean;
  best?: Refactor;
  /** True when `best` is only as much of the text as the search index keeps (the service did not answer). */
  cut?: boolean;
  /** The best refactoring rewritten into the given code's names, or why it does not adapt. */
  adapted?: { ok: true; text: string } | { ok: false; reason: string };
}

/**
 * The codes like the one given, best first: each with its id, title, how alike, page URL, and its
 * best refactoring (rating, author) in the given code's names where it adapts, else as it is with
 * the reason. Bounded like every answer.
 */
export function similarAnswer(
  input: { matches: readonly SimilarMatchInput[]; language: string; baseUrl: string; note?: string; codeTool?: string },
  maxChars = MAX_ANSWER_CHARS,
): string {
  const head = [input.matches.length === 0
    ? `No code in the catalog is like this ${oneLine(input.language)} code.`
    : `${plural(input.matches.length, 'code', 'codes')} in the catalog like this ${oneLine(input.language)} code, most alike first.`];
  const tail = [
    input.note ? oneLine(input.note) : '',
    input.matches.length > 0 && input.codeTool ? `Read a code with all its refactorings by its id with ${input.codeTool}.` : '',
  ].filter(Boolean);
  const items = input.matches.map((m, i) => (room: number) => similarText(m, i + 1, input.baseUrl, room));
  return bounded(head, items, tail, maxChars, (left) => `${plural(left, 'more code', 'more codes')} left out to keep this answer short.`);
}

function similarText(m: SimilarMatchInput, n: number, baseUrl: string, room: number): string | undefined {
  const lines = [
    `## ${n}. Code #${m.code.id}: ${oneLine(titleOf(m.code))}`,
    `${Math.round(m.similarity * 100)}% alike${m.certain ? '' : ' (compared by its words alone: less certain)'}; language: ${oneLine(m.code.language) || 'unknown'}; page: ${pageOf(baseUrl, codeRefOf(m.code)) ?? NO_PAGES}`,
  ];
  if (!m.best) return [...lines, 'No refactorings yet.'].join('\n');
  lines.push(`Best refactoring #${m.best.id}: ${oneLine(titleOf(m.best))}, ${ratingPhrase(m.best)}, by ${oneLine(authorOf(m.best))}`);
  const said = lines.join('\n');
  if (m.adapted?.ok) return fenced(m.adapted.text, m.code.language, room, `${said}\nIn the given code's names:`);
  const written = m.cut ? 'as written, up to where the search index cuts it' : 'as written';
  const why = m.adapted ? `It does not adapt to the given code (${oneLine(m.adapted.reason)}); ${written}:` : `${written[0].toUpperCase()}${written.slice(1)}:`;
  return fenced(m.best.code, m.best.language || m.code.language, room, `${said}\n${why}`);
}

/** Said instead of a page URL for a catalog with no web pages. */
const NO_PAGES = 'none (the built-in sample catalog has no web pages)';

/**
 * A code's page on the service; undefined for the built-in sample catalog, whose address is on a
 * `.invalid` host (reserved: it never resolves), so an agent is never handed a link that cannot open.
 */
function pageOf(baseUrl: string, ref: string | number): string | undefined {
  return isSampleAddress(baseUrl) ? undefined : pageUrl(codeUrl(baseUrl, ref));
}

/**
 * A fence of backticks longer than any run of backticks in `text` (at least three), so that nothing
 * inside can close it.
 */
export function fenceFor(text: string): string {
  return '`'.repeat(Math.max(3, longestBacktickRun(text) + 1));
}

function longestBacktickRun(text: string): number {
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  return longest;
}

/** Between the blocks of an answer. */
const SEPARATOR = '\n\n';
/** Room kept for the sentence saying what was left out (its counts and a page URL included). */
const RESERVE = 400;
/** A comment is the author's explanation, not what was asked for: it gets no more than this. */
const MAX_COMMENT_CHARS = 2000;
/** Less room than this, and an item that would have to be cut is left out instead. */
const MIN_CUT_ROOM = 300;

/** A block of an answer, made to fit in `room` characters; undefined when it cannot. */
type Item = string | ((room: number) => string | undefined);

/**
 * The head, as many items as fit in order, and the tail, joined; when items are left out, a sentence
 * saying so (made by `leftOut` from their number) takes their place. Never longer than `maxChars`:
 * what still does not fit is cut.
 */
function bounded(head: string[], items: Item[], tail: string[], maxChars: number, leftOut: (n: number) => string): string {
  const parts = [...head];
  let used = joined(parts).length + SEPARATOR.length + joined(tail).length;
  let shown = 0;
  for (const item of items) {
    const last = shown === items.length - 1;
    const room = maxChars - (last ? 0 : RESERVE) - used - SEPARATOR.length;
    const text = typeof item === 'string' ? item : item(room);
    if (text === undefined || text.length > room) break;
    parts.push(text);
    used += SEPARATOR.length + text.length;
    shown++;
  }
  if (shown < items.length) parts.push(leftOut(items.length - shown));
  const text = joined([...parts, ...tail]);
  return text.length <= maxChars ? text : `${text.slice(0, Math.max(0, maxChars - 1))}…`;
}

function joined(parts: readonly string[]): string {
  return parts.join(SEPARATOR);
}

function hitText(h: SearchHit, n: number, baseUrl: string): string {
  const title = h.kind === 'refactor'
    ? `${oneLine(titleOf({ id: h.refactorId ?? 0, codeId: h.codeId, title: h.title }))} (a refactoring of code #${h.codeId}${h.codeTitle ? `, ${oneLine(h.codeTitle)}` : ''})`
    : oneLine(titleOf({ id: h.codeId, title: h.title }));
  const lines = [
    `${n}. Code #${h.codeId}: ${title}`,
    `   language: ${oneLine(h.language) || 'unknown'}; author: ${oneLine(h.author) || 'anonymous'}; page: ${pageOf(baseUrl, h.codeId) ?? NO_PAGES}`,
  ];
  if (h.line) lines.push(`   matched: ${inlineCode(h.line)}`);
  return lines.join('\n');
}

function refactorText(r: Refactor, codeLanguage: string, room: number): string | undefined {
  const head = `## Refactoring #${r.id}: ${oneLine(titleOf(r))}\n${ratingPhrase(r)}, by ${oneLine(authorOf(r))}`;
  const said = [head, ...comment(r.comment, MAX_COMMENT_CHARS)].join(SEPARATOR);
  if (r.code.trim() === '') return `${said}${SEPARATOR}(no code: a comment only)`;
  return fenced(r.code, r.language || codeLanguage, room - said.length - SEPARATOR.length, said);
}

/**
 * A comment as a quote: it is the author's Markdown-like text, and a fence or heading in it stays
 * inside the quote instead of swallowing the rest of the answer.
 */
function comment(text: string, max: number): string[] {
  let t = withoutControls(text).replace(/\r\n?/g, '\n').trim();
  if (t === '') return [];
  if (t.length > max) t = `${t.slice(0, max - 1)}…`;
  return [t.split('\n').map((line) => `> ${line}`).join('\n')];
}

/**
 * The code in a fenced block tagged with its language, after `before` if given, kept within `room`
 * characters: cut at a line when longer, with a line after the block saying how much was left out.
 * Undefined when so little room is left that a cut would show next to nothing.
 */
function fenced(code: string, language: string, room: number, before?: string): string | undefined {
  const body = withoutControls(code).replace(/\r\n?/g, '\n').replace(/\n+$/, '');
  const info = highlightJsLanguage(language) ?? '';
  const fence = fenceFor(body);
  const prefix = before === undefined ? '' : `${before}${SEPARATOR}`;
  const whole = `${prefix}${fence}${info}\n${body}\n${fence}`;
  if (whole.length <= room) return whole;
  if (room < MIN_CUT_ROOM) return undefined;
  const lines = body.split('\n');
  const note = (shown: number) => `(the code is cut here: ${shown} of ${lines.length} lines shown)`;
  const frame = `${prefix}${fence}${info}\n\n${fence}\n${note(lines.length)}`.length;
  let kept = '';
  let shown = 0;
  for (const line of lines) {
    const next = shown === 0 ? line : `${kept}\n${line}`;
    if (next.length + frame > room) break;
    kept = next;
    shown++;
  }
  return `${prefix}${fence}${info}\n${kept}\n${fence}\n${note(shown)}`;
}

/** A span of inline code that no backtick inside can close. */
function inlineCode(text: string): string {
  const t = oneLine(text);
  const ticks = '`'.repeat(longestBacktickRun(t) + 1);
  const pad = t.startsWith('`') || t.endsWith('`') ? ' ' : '';
  return `${ticks}${pad}${t}${pad}${ticks}`;
}

/**
 * Strangers' text on one line, so that a title cannot start a heading or a fence of its own, and
 * without control characters (a client may show the answer in a terminal).
 */
function oneLine(text: string): string {
  return withoutControls(text).replace(/\s+/g, ' ').trim();
}

function withoutControls(text: string): string {
  return text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g, '');
}

