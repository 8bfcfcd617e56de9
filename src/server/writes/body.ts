// A write's XML body (`<code><title>…</title>…</code>`) read into its fields' text, with the same
// guards the client's decoder has (xmlDecode.ts): no DOCTYPE (so no declared entity is expanded),
// bounded markup, well-formed XML, and no entity but XML's five and numeric references. Then each
// kind's validations, worded for a person as the original service worded them ("Title can't be
// blank"), one reason per invalid field. No Node module here.

import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { canonicalServiceLanguage, isServiceLanguage, SERVICE_LANGUAGES } from '../../core/languages';
import {
  codePointLabel, FIELD, fieldLabel, firstNonXmlChar, MAX_CODE_CHARS, MAX_COMMENT_CHARS, MAX_TAG_CHARS, MAX_TAGS, MAX_TITLE_CHARS,
  READ_BOUNDS, splitTags, escapeXmlText, type ServiceReason, type WriteField,
} from '../../core/writeContract';
import { parserOptions, scanMarkup } from '../../core/xmlDecode';
import { decodeReferences } from '../../core/xmlFields';
import type { DatasetCode } from '../catalog/dataset';
import { renderCodeXml } from '../render/xmlRender';
import type { NewCode, NewRefactor } from '../store';

/**
 * Elements, and attributes, a write's body may hold before it is parsed: a code's fields are a few
 * elements, each with a `type` attribute at most (as a Rails client sends them); far more is
 * refused in the one pass that counts them, so that no body holds the service's thread in the parser.
 */
export const MAX_WRITE_MARKUP = 256;

/** The body cannot be read as a submission at all: a 400 with this one-line reason. */
export class SubmissionError extends Error {
  override readonly name = 'SubmissionError';
}

// A reference to a character XML cannot carry is decoded to that character, so that the field's
// check refuses it by name (a 422, as for the character sent raw); a high surrogate is kept from
// pairing with the next reference. One to no character at all is not XML: a 400.
const parser = new XMLParser({
  ...parserOptions,
  isArray: () => false,
  entityDecoder: {
    ...parserOptions.entityDecoder!,
    decode: (text: string) => decodeReferences(text, (ref, cp) => {
      if (cp > 0x10ffff) throw new SubmissionError(`the reference ${ref} names no character`);
      return cp >= 0xd800 && cp <= 0xdbff ? `${String.fromCharCode(cp)}\uFFFF` : String.fromCodePoint(cp);
    }),
  },
});
const CDATA = /<!\[CDATA\[[\s\S]*?\]\]>/g;
/** `&` that does not start one of XML's own references. */
const OTHER_ENTITY = /&(?!(?:amp|lt|gt|quot|apos|#[0-9]{1,7}|#x[0-9a-fA-F]{1,6});)([^\s;<&]{0,20};?)/;

/**
 * The text of each child element of `root` (`title` → its text; an empty element → ''). Unknown
 * children are ignored, as are fields a client may not set: they are never read from here.
 */
export function readSubmission(xml: string, root: string): Map<string, string> {
  let scan;
  try {
    scan = scanMarkup(xml);
  } catch (err) {
    throw new SubmissionError(err instanceof Error ? err.message : String(err));
  }
  const count = (n: number): string => n.toLocaleString('en-US');
  if (scan.elements > MAX_WRITE_MARKUP) throw new SubmissionError(`the body holds ${count(scan.elements)} elements; a write has a few, and at most ${MAX_WRITE_MARKUP} are read`);
  if (scan.attributes > MAX_WRITE_MARKUP) throw new SubmissionError(`the body holds ${count(scan.attributes)} attributes; a write's fields take none, and at most ${MAX_WRITE_MARKUP} are read past`);
  const entity = OTHER_ENTITY.exec(xml.replace(CDATA, ''));
  if (entity) throw new SubmissionError(`the entity &${entity[1]} is not XML's: write the character itself or a numeric reference`);
  const valid = XMLValidator.validate(xml);
  if (valid !== true) throw new SubmissionError(`the body is not well-formed XML (${valid.err.msg}, line ${valid.err.line})`);
  let doc: Record<string, unknown>;
  try {
    doc = parser.parse(xml) as Record<string, unknown>;
  } catch (err) {
    // The parser's own limits (elements nested more than 100 deep) throw a plain Error.
    if (err instanceof SubmissionError) throw err;
    throw new SubmissionError(`the body cannot be read: ${err instanceof Error ? err.message : String(err)}`);
  }
  const roots = Object.keys(doc);
  if (roots.length !== 1 || roots[0] !== root) throw new SubmissionError(`the body must be one <${root}> element`);
  const fields = new Map<string, string>();
  const content = doc[root];
  if (typeof content !== 'object' || content === null) return fields;
  for (const [name, value] of Object.entries(content as Record<string, unknown>)) {
    if (name.startsWith('@_') || name === '#text') continue;
    const text = textOf(value);
    if (text === undefined) throw new SubmissionError(`<${name}> must hold text only, once`);
    fields.set(name, text);
  }
  return fields;
}

function textOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const keys = Object.keys(value);
  // Attributes (a Rails client sends type="…") are fine; child elements are not.
  if (keys.some((k) => !k.startsWith('@_') && k !== '#text')) return undefined;
  const text = (value as Record<string, unknown>)['#text'];
  return typeof text === 'string' ? text : '';
}

export type Checked<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly reasons: readonly ServiceReason[] };
type Say = (field: WriteField, text: string) => void;

/** The reasons said so far, and how to say one more. */
function reasons(): { list: ServiceReason[]; say: Say } {
  const list: ServiceReason[] = [];
  return { list, say: (field, text) => void list.push({ field, text }) };
}

export function checkNewCode(fields: Map<string, string>): Checked<NewCode> {
  const { list, say } = reasons();
  const title = (fields.get(FIELD.title) ?? '').trim();
  const language = (fields.get(FIELD.language) ?? '').trim();
  const comment = fields.get(FIELD.comment) ?? '';
  const code = fields.get(FIELD.code) ?? '';
  checkTitle(title, true, say);
  if (language === '') say(FIELD.language, "Language can't be blank");
  else if (!isServiceLanguage(language)) say(FIELD.language, `Language must be one of ${SERVICE_LANGUAGES.join(', ')}`);
  if (comment.trim() === '') say(FIELD.comment, "Comment can't be blank");
  if (code.trim() === '') say(FIELD.code, "Code can't be blank");
  checkLengths(comment, code, say);
  const tags = [...new Map(splitTags(fields.get(FIELD.tags) ?? '').map((t) => [t.toLowerCase(), t])).values()];
  if (tags.length > MAX_TAGS) say(FIELD.tags, `Tag list has more than ${MAX_TAGS} tags`);
  const long = tags.find((t) => t.length > MAX_TAG_CHARS);
  if (long !== undefined) say(FIELD.tags, `Tag list has a tag longer than ${MAX_TAG_CHARS} characters`);
  checkCharacters({ [FIELD.title]: title, [FIELD.comment]: comment, [FIELD.code]: code, [FIELD.tags]: tags.join(' ') }, say);
  if (list.length > 0) return { ok: false, reasons: list };
  return { ok: true, value: { title, language: canonicalServiceLanguage(language), comment, code, tags } };
}

/** A refactoring needs a comment or code (an explanation alone is a fair answer); the title is optional. */
export function checkNewRefactor(fields: Map<string, string>): Checked<NewRefactor> {
  const { list, say } = reasons();
  const title = (fields.get(FIELD.title) ?? '').trim();
  const comment = fields.get(FIELD.comment) ?? '';
  const code = fields.get(FIELD.code) ?? '';
  checkTitle(title, false, say);
  if (comment.trim() === '' && code.trim() === '') say(FIELD.comment, "Comment and code can't both be blank");
  checkLengths(comment, code, say);
  checkCharacters({ [FIELD.title]: title, [FIELD.comment]: comment, [FIELD.code]: code }, say);
  if (list.length > 0) return { ok: false, reasons: list };
  return { ok: true, value: { title, comment, code } };
}

export function checkRating(fields: Map<string, string>): Checked<number> {
  const value = (fields.get(FIELD.value) ?? '').trim();
  if (!/^[1-5]$/.test(value)) return { ok: false, reasons: [{ field: FIELD.value, text: 'Value must be a whole number from 1 to 5' }] };
  return { ok: true, value: Number(value) };
}

function checkTitle(title: string, required: boolean, say: Say): void {
  if (required && title === '') say(FIELD.title, "Title can't be blank");
  if ([...title].length > MAX_TITLE_CHARS) say(FIELD.title, `Title is too long (maximum is ${MAX_TITLE_CHARS} characters)`);
}

/** What the 413 says besides the body's bound, since a body within it may still hold too long a text. */
export const TEXT_BOUNDS = `a code holds at most ${MAX_CODE_CHARS} characters and a comment ${MAX_COMMENT_CHARS}, so that a page of 25 stays readable`;

/** Bounded so that a page of 25 of the longest still fits what a client reads (writeContract.ts). */
function checkLengths(comment: string, code: string, say: Say): void {
  const bounds: [WriteField, string, number][] = [[FIELD.comment, comment, MAX_COMMENT_CHARS], [FIELD.code, code, MAX_CODE_CHARS]];
  for (const [field, text, max] of bounds) {
    // Code points, as the title's: no character takes more than the bound allows for it.
    if (text.length > max && [...text].length > max) {
      say(field, `${fieldLabel(field)} is too long (maximum is ${max} characters, so that a page of 25 stays readable)`);
    }
  }
}

/** A numeric reference can name a character XML cannot carry; stored, it would break every page showing it. */
function checkCharacters(fields: Partial<Record<WriteField, string>>, say: Say): void {
  for (const [field, text] of Object.entries(fields) as [WriteField, string][]) {
    const cp = firstNonXmlChar(text);
    if (cp !== undefined) say(field, `${fieldLabel(field)} holds ${codePointLabel(cp)}, a character XML 1.0 cannot carry`);
  }
}

/** More than a refactoring's markup and its author's name and website take in a code's page. */
export const REFACTOR_MARKUP_BYTES = 4096;
const encoder = new TextEncoder();

/**
 * A code's page carries all its refactorings whole: one more is refused when the page would no
 * longer fit what a client reads, so that no one can make a code unreadable with many long ones.
 */
export function checkCodePageRoom(code: DatasetCode, refactor: NewRefactor): Checked<NewRefactor> {
  const page = encoder.encode(renderCodeXml(code)).length;
  const added = [refactor.title, refactor.comment, refactor.code].reduce((n, text) => n + encoder.encode(escapeXmlText(text)).length, REFACTOR_MARKUP_BYTES);
  if (page + added <= READ_BOUNDS.answerBytes) return { ok: true, value: refactor };
  return { ok: false, reasons: [{ text: `Code ${code.id} has as many refactorings as its page can carry: a shorter one may still fit` }] };
}
