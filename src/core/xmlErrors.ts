// fast-xml-parser's validator words two common failures in ways a user cannot act on: a body cut
// short with several elements open comes out as `Invalid '["codes","code"]' found.` at line 1,
// column 1, and a second root as `Multiple possible root nodes found.`. These are rewritten to name
// the elements; every other failure keeps the validator's words with its line and column.

import { DecodeError } from './errors';

export interface ValidationFailure {
  msg: string;
  line: number;
  col: number;
}

const OPEN_AT_END = /^Invalid '(\[.*\])' found\.$/;
const ONE_OPEN_AT_END = /^Unclosed tag '([^']*)'\.$/;
const SECOND_ROOT = 'Multiple possible root nodes found.';
const ELEMENT_NAME = /<([A-Za-z_:][^\s/>]*)/g;

export function malformedXmlError(body: string, err: ValidationFailure): DecodeError {
  const open = openAtEnd(err.msg);
  if (open) {
    const list = open.map((n) => `<${n}>`).join(', ');
    return new DecodeError('invalid-xml', `malformed XML: the body ends inside ${list} (truncated?)`, open.join('/'));
  }
  if (err.msg === SECOND_ROOT) {
    const first = firstElementName(body);
    const second = elementNameBefore(body, err.line, err.col);
    if (first && second) {
      // The same words the decoder uses when the validator lets two self-closed roots through.
      return new DecodeError('invalid-xml', `malformed XML: two root elements <${first}> and <${second}>`, second);
    }
  }
  return new DecodeError('invalid-xml', `malformed XML at line ${err.line}, column ${err.col}: ${err.msg}`);
}

/** The elements still open when the body ended, outermost first; undefined for other failures. */
function openAtEnd(msg: string): string[] | undefined {
  const one = ONE_OPEN_AT_END.exec(msg);
  if (one) return [one[1]];
  const many = OPEN_AT_END.exec(msg);
  if (!many) return undefined;
  try {
    const names: unknown = JSON.parse(many[1]);
    if (Array.isArray(names) && names.length > 0 && names.every((n) => typeof n === 'string')) return names;
  } catch {
    // not the list this message usually carries: keep the validator's words
  }
  return undefined;
}

function firstElementName(body: string): string | undefined {
  ELEMENT_NAME.lastIndex = 0;
  return ELEMENT_NAME.exec(body)?.[1];
}

/** The name of the last start tag that begins before line `line`, column `col` (both 1-based). */
function elementNameBefore(body: string, line: number, col: number): string | undefined {
  let offset = 0;
  for (let l = 1; l < line && offset !== -1; l++) offset = body.indexOf('\n', offset) + 1 || -1;
  if (offset === -1) return undefined;
  const lt = body.lastIndexOf('<', offset + col - 1);
  if (lt === -1) return undefined;
  ELEMENT_NAME.lastIndex = lt;
  const m = ELEMENT_NAME.exec(body);
  return m && m.index === lt ? m[1] : undefined;
}
