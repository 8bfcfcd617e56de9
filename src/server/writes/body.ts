// A write's XML body (`<code><title>…</title>…</code>`) read into its fields' text, with the same
// guards the client's decoder has (xmlDecode.ts): no DOCTYPE (so no declared entity is expanded),
// bounded markup, well-formed XML, and no entity but XML's five and numeric references. Then each
// kind's validations, worded for a person as the original service worded them ("Title can't be
// blank"), one reason per invalid field. No Node module here.

import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { canonicalServiceLanguage, isServiceLanguage, SERVICE_LANGUAGES } from '../../api/languages';
import { parserOptions, scanMarkup } from '../../api/xmlDecode';
import { NOT_XML_CHAR } from '../catalog/datasetFields';
import type { NewCode, NewRefactor } from '../store';

/** The body cannot be read as a submission at all: a 400 with this one-line reason. */
export class SubmissionError extends Error {
  override readonly name = 'SubmissionError';
}

/** Longer titles do not fit a list row; the original service's pages cut them too. */
export const MAX_TITLE_LENGTH = 200;
export const MAX_TAGS = 20;
export const MAX_TAG_LENGTH = 50;

const parser = new XMLParser({ ...parserOptions, isArray: () => false });
const CDATA = /<!\[CDATA\[[\s\S]*?\]\]>/g;
/** `&` that does not start one of XML's own references. */
const OTHER_ENTITY = /&(?!(?:amp|lt|gt|quot|apos|#[0-9]{1,7}|#x[0-9a-fA-F]{1,6});)([^\s;<&]{0,20};?)/;

/**
 * The text of each child element of `root` (`title` → its text; an empty element → ''). Unknown
 * children are ignored, as are fields a client may not set: they are never read from here.
 */
export function readSubmission(xml: string, root: string): Map<string, string> {
  try {
    scanMarkup(xml);
  } catch (err) {
    throw new SubmissionError(err instanceof Error ? err.message : String(err));
  }
  const entity = OTHER_ENTITY.exec(xml.replace(CDATA, ''));
  if (entity) throw new SubmissionError(`the entity &${entity[1]} is not XML's: write the character itself or a numeric reference`);
  const valid = XMLValidator.validate(xml);
  if (valid !== true) throw new SubmissionError(`the body is not well-formed XML (${valid.err.msg}, line ${valid.err.line})`);
  const doc = parser.parse(xml) as Record<string, unknown>;
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

export type Checked<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly reasons: readonly string[] };

export function checkNewCode(fields: Map<string, string>): Checked<NewCode> {
  const reasons: string[] = [];
  const title = (fields.get('title') ?? '').trim();
  const language = (fields.get('language') ?? '').trim();
  const comment = fields.get('comment') ?? '';
  const code = fields.get('code') ?? '';
  checkTitle(title, true, reasons);
  if (language === '') reasons.push("Language can't be blank");
  else if (!isServiceLanguage(language)) reasons.push(`Language must be one of ${SERVICE_LANGUAGES.join(', ')}`);
  if (comment.trim() === '') reasons.push("Comment can't be blank");
  if (code.trim() === '') reasons.push("Code can't be blank");
  const tags = [...new Map((fields.get('tag-list') ?? '').split(/[\s,]+/).filter((t) => t !== '').map((t) => [t.toLowerCase(), t])).values()];
  if (tags.length > MAX_TAGS) reasons.push(`Tag list has more than ${MAX_TAGS} tags`);
  const long = tags.find((t) => t.length > MAX_TAG_LENGTH);
  if (long !== undefined) reasons.push(`Tag list has a tag longer than ${MAX_TAG_LENGTH} characters`);
  checkCharacters({ Title: title, Comment: comment, Code: code, 'Tag list': tags.join(' ') }, reasons);
  if (reasons.length > 0) return { ok: false, reasons };
  return { ok: true, value: { title, language: canonicalServiceLanguage(language), comment, code, tags } };
}

/** A refactoring needs a comment or code (an explanation alone is a fair answer); the title is optional. */
export function checkNewRefactor(fields: Map<string, string>): Checked<NewRefactor> {
  const reasons: string[] = [];
  const title = (fields.get('title') ?? '').trim();
  const comment = fields.get('comment') ?? '';
  const code = fields.get('code') ?? '';
  checkTitle(title, false, reasons);
  if (comment.trim() === '' && code.trim() === '') reasons.push("Comment and code can't both be blank");
  checkCharacters({ Title: title, Comment: comment, Code: code }, reasons);
  if (reasons.length > 0) return { ok: false, reasons };
  return { ok: true, value: { title, comment, code } };
}

export function checkRating(fields: Map<string, string>): Checked<number> {
  const value = (fields.get('value') ?? '').trim();
  if (!/^[1-5]$/.test(value)) return { ok: false, reasons: ['Value must be a whole number from 1 to 5'] };
  return { ok: true, value: Number(value) };
}

function checkTitle(title: string, required: boolean, reasons: string[]): void {
  if (required && title === '') reasons.push("Title can't be blank");
  if ([...title].length > MAX_TITLE_LENGTH) reasons.push(`Title is too long (maximum is ${MAX_TITLE_LENGTH} characters)`);
}

/** A numeric reference can name a character XML cannot carry; stored, it would break every page showing it. */
function checkCharacters(fields: Record<string, string>, reasons: string[]): void {
  for (const [name, text] of Object.entries(fields)) {
    const m = NOT_XML_CHAR.exec(text);
    if (m) reasons.push(`${name} holds U+${m[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}, a character XML 1.0 cannot carry`);
  }
}
