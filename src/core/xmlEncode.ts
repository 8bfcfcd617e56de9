// The bodies the client sends to a writable service: small XML documents built by hand, every
// text escaped so that the service's parser gives back exactly what was typed. A character XML 1.0
// cannot carry at all (most C0 controls, U+FFFE, U+FFFF, a lone surrogate) is refused here, naming
// the field: escaped or not, a conforming parser would refuse the whole body.
import { ApiError } from './errors';
import { codePointLabel, escapeXmlText, FIELD, firstNonXmlChar, holdsTagSeparator, TAG_SEPARATOR, type NewCode, type NewRefactor } from './writeContract';

export type { NewCode, NewRefactor };

const DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';

/** `text` escaped as element content, once it is known that XML can carry it. */
export function escapedField(text: string, field: string): string {
  const bad = firstNonXmlChar(text);
  if (bad !== undefined) {
    const at = bad >= 0xd800 && bad <= 0xdfff ? `a lone surrogate ${codePointLabel(bad)}` : `the character ${codePointLabel(bad)}`;
    throw new ApiError('invalid-input', '', `${field} holds ${at}, which XML cannot carry: remove it and send again`);
  }
  return escapeXmlText(text);
}

/** `<code>` for `POST /codes.xml`. */
export function codeBody(code: NewCode): string {
  const tags = (code.tags ?? []).map((t) => t.trim()).filter((t) => t !== '');
  for (const tag of tags) {
    // Tags are sent separated by spaces; one with a space or comma inside would arrive as two.
    if (holdsTagSeparator(tag)) throw new ApiError('invalid-input', '', `the tag "${tag}" holds a space or a comma, which separate tags`);
  }
  return document('code', [
    [FIELD.title, code.title],
    [FIELD.language, code.language],
    [FIELD.comment, code.comment],
    [FIELD.code, code.code],
    [FIELD.tags, tags.join(TAG_SEPARATOR)],
  ]);
}

/** `<refactor>` for `POST /codes/{id}/refactors.xml`; no `<title>` when none is given. */
export function refactorBody(refactor: NewRefactor): string {
  const fields: [string, string][] = [];
  if (refactor.title !== undefined) fields.push([FIELD.title, refactor.title]);
  fields.push([FIELD.comment, refactor.comment], [FIELD.code, refactor.code]);
  return document('refactor', fields);
}

/** `<rating>` for `POST …/rate.xml`: a whole number from 1 to 5. */
export function ratingBody(value: number): string {
  if (!Number.isInteger(value) || value < 1 || value > 5) {
    throw new ApiError('invalid-input', '', `a rating is a whole number from 1 to 5, got ${value}`);
  }
  return document('rating', [[FIELD.value, String(value)]]);
}

function document(root: string, fields: readonly (readonly [string, string])[]): string {
  const lines = fields.map(([name, text]) => `  <${name}>${escapedField(text, name)}</${name}>\n`);
  return `${DECLARATION}<${root}>\n${lines.join('')}</${root}>\n`;
}
