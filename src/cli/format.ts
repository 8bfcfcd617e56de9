// Plain-text rendering of lists and codes for the terminal, and the --json output (the model
// serialises as the contract says, Dates as ISO strings and absent users omitted).
import type { Code, Refactor } from '../core/model';
import { authorOf, titleOf } from '../core/names';
import { plural } from '../core/plural';

/**
 * Pretty JSON with DEL and the C1 controls written as \u escapes: JSON.stringify escapes only C0, and
 * a raw U+009B is a CSI to some terminals. The parsed text is unchanged.
 */
export function formatJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2).replace(/[\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}\n`;
}

export function formatCodes(codes: readonly Code[]): string {
  if (codes.length === 0) return 'No codes.\n';
  return codes
    .map((c) => {
      const meta = [c.language, authorOf(c), day(c.createdAt), plural(c.refactorsCount ?? 0, 'refactoring')];
      return `#${c.id}  ${oneLine(c.title)}\n      ${meta.map(oneLine).join(' · ')}\n`;
    })
    .join('');
}

export function formatRefactors(refactors: readonly Refactor[]): string {
  if (refactors.length === 0) return 'No refactorings.\n';
  return refactors
    .map((r) => {
      const meta = [r.language, authorOf(r), day(r.createdAt), `code #${r.codeId}`, formatRating(r)];
      return `#${r.id}  ${oneLine(titleOf(r))}\n      ${meta.map(oneLine).join(' · ')}\n`;
    })
    .join('');
}

export function formatCode(code: Code): string {
  const out: string[] = [];
  out.push(`#${code.id}  ${oneLine(titleOf(code))}`);
  out.push(`${oneLine(code.language)} · ${oneLine(authorOf(code))} · created ${day(code.createdAt)} · updated ${day(code.updatedAt)}`);
  // Only where the service says a code's tags (the original service's XML did not).
  if (code.tags && code.tags.length > 0) out.push(`tags: ${code.tags.map(oneLine).join(', ')}`);
  if (code.comment.trim()) out.push('', indent(code.comment));
  out.push('', fence(code.code));
  const refactors = code.refactors ?? [];
  out.push('', `${plural(refactors.length, 'refactoring')}`);
  for (const r of refactors) {
    out.push('', `--- #${r.id} ${oneLine(titleOf(r))} · ${oneLine(authorOf(r))} · ${day(r.createdAt)} · ${formatRating(r)}`);
    if (r.comment.trim()) out.push(indent(r.comment));
    out.push(fence(r.code));
  }
  return out.join('\n') + '\n';
}

/** `rating 4.5 (2 votes)`, `rating - (0 votes)` before the first. */
export function formatRating(r: Refactor): string {
  return `rating ${r.rating ?? '-'} (${plural(r.ratingsCount ?? 0, 'vote')})`;
}

function day(d: Date | null): string {
  return d ? d.toISOString().slice(0, 10) : 'unknown date';
}

// Titles and names are strangers' text: keep a listing to one line per field and strip terminal
// control sequences so a title cannot rewrite the screen.
export function oneLine(s: string): string {
  return stripControls(s).replace(/\s+/g, ' ').trim();
}

/** Drops terminal control characters (C0 but newline and tab, DEL, C1): strangers' text must not drive the terminal. */
export function stripControls(s: string): string {
  return s.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '');
}

function indent(text: string): string {
  return stripControls(text.replace(/\r\n?/g, '\n')).replace(/\n+$/, '').split('\n').map((l) => `  ${l}`).join('\n');
}

function fence(code: string): string {
  const body = stripControls(code.replace(/\r\n?/g, '\n')).replace(/\n$/, '');
  return `    ${body.split('\n').join('\n    ')}`;
}
