// Pure text preparation for Insert at Cursor. The extension inserts the result with
// `editor.edit(b => b.replace(...))`, never as a snippet, so `$1`, `${TM_FILENAME}` and backticks
// need no escaping here: this module only re-indents and converts line endings.

export interface InsertionOptions {
  /** Leading whitespace of the cursor's line, up to the cursor (see `indentationAt`). */
  indentation: string;
  /** The document's end-of-line sequence. */
  eol: '\n' | '\r\n';
  /**
   * The text after the cursor (or after the selection's end) up to the end of its line. It decides
   * what happens to the code's final line break; omitted means nothing follows.
   */
  lineRest?: string;
}

const LINE_BREAK = /\r\n|\r|\n/;

/**
 * The leading whitespace of `lineText`, cut at `character` when the cursor sits inside it: lines 2..n
 * of an insertion line up with the cursor's line, never deeper than the cursor itself.
 */
export function indentationAt(lineText: string, character: number): string {
  const leading = /^[ \t]*/.exec(lineText)?.[0] ?? '';
  return leading.slice(0, Math.max(0, character));
}

/**
 * The text to insert for `code` at a cursor.
 * - Line endings (\r\n, \r, \n, mixed) all become the document's EOL.
 * - Lines 2..n get the cursor line's indentation in front; lines that are empty or whitespace-only
 *   are left as they are, so the insertion adds no trailing whitespace.
 * - The code's final line break: the service keeps one at the end of most codes. Inserted at an
 *   empty line or at the end of a line it would only add a blank line, so it is dropped. When text
 *   follows the cursor on its line, it is kept and followed by the indentation, so that text moves
 *   to its own line, aligned as before, instead of being glued to the code's last line.
 * - Everything else is literal: `$1`, `${name}`, backticks, tabs and trailing spaces inside lines.
 */
export function prepareInsertion(code: string, opts: InsertionOptions): string {
  const lines = code.split(LINE_BREAK);
  const endsWithBreak = lines.length > 1 && lines[lines.length - 1] === '';
  if (endsWithBreak) lines.pop();
  const body = lines
    .map((line, i) => (i === 0 || line.trim() === '' ? line : opts.indentation + line))
    .join(opts.eol);
  const restFollows = opts.lineRest !== undefined && opts.lineRest.trim() !== '';
  return endsWithBreak && restFollows ? body + opts.eol + opts.indentation : body;
}
