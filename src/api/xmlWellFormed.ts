// A fast well-formedness check for the plain XML the service sends, so that decoding does not pay
// for fast-xml-parser's validator (which builds every name and attribute string one character at a
// time) on every body. It accepts a strict subset of what XMLValidator.validate accepts: ASCII
// names, quoted attributes without `<` or `&`, the five entities' shape and numeric references,
// comments and CDATA. Anything else, well-formed or not, answers false and the caller falls back to
// the validator, which then decides and gives the error with its line and column. So the decoder
// accepts and refuses exactly what it did with the validator alone, only faster.

const NAME = '[A-Za-z_:][A-Za-z0-9_:.-]*';
const S = '[ \\t\\r\\n]';
const DECLARATION = /<\?xml[ \t\r\n][^<>?]*\?>/y;
const START_TAG = new RegExp(`<(${NAME})((?:${S}+${NAME}${S}*=${S}*(?:"[^"<&]*"|'[^'<&]*'))*)${S}*(/?)>`, 'y');
const END_TAG = new RegExp(`</(${NAME})${S}*>`, 'y');
const ATTRIBUTE_NAME = new RegExp(`(${NAME})${S}*=`, 'g');
const REFERENCE = /&(?:#[0-9]+|#x[0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]{0,15});/y;

const SLASH = 0x2f, BANG = 0x21;

/**
 * True only if `xml` (starting at its first `<`, no BOM) is one element, optionally after an XML
 * declaration, with nothing but whitespace and comments around it, and every part in the subset.
 * False means "not known to be well-formed", not "malformed".
 */
export function isPlainWellFormed(xml: string): boolean {
  const n = xml.length;
  let i = 0;
  DECLARATION.lastIndex = 0;
  if (DECLARATION.test(xml)) i = DECLARATION.lastIndex;
  const open: string[] = [];
  let rootSeen = false;
  // The next `&` at or after the text being looked at; found once, so a scan stays linear.
  let amp = xml.indexOf('&');
  while (i < n) {
    const lt = xml.indexOf('<', i);
    const end = lt === -1 ? n : lt;
    if (end > i) {
      if (open.length === 0) {
        if (!isBlank(xml, i, end)) return false;
      } else {
        if (amp !== -1 && amp < i) amp = xml.indexOf('&', i);
        while (amp !== -1 && amp < end) {
          REFERENCE.lastIndex = amp;
          if (!REFERENCE.test(xml)) return false;
          amp = xml.indexOf('&', REFERENCE.lastIndex);
        }
      }
    }
    if (lt === -1) break;
    const next = xml.charCodeAt(lt + 1);
    if (next === SLASH) {
      END_TAG.lastIndex = lt;
      const m = END_TAG.exec(xml);
      if (!m || open.pop() !== m[1]) return false;
      i = END_TAG.lastIndex;
    } else if (next === BANG) {
      if (xml.startsWith('<!--', lt)) {
        const close = xml.indexOf('-->', lt + 4);
        if (close === -1) return false;
        i = close + 3;
      } else if (open.length > 0 && xml.startsWith('<![CDATA[', lt)) {
        const close = xml.indexOf(']]>', lt + 9);
        if (close === -1) return false;
        i = close + 3;
      } else {
        return false; // a DOCTYPE or something stranger: the validator decides
      }
    } else {
      if (open.length === 0 && rootSeen) return false; // a second root
      START_TAG.lastIndex = lt;
      const m = START_TAG.exec(xml);
      if (!m || (m[2] !== '' && !distinctNames(m[2]))) return false;
      rootSeen = true;
      if (m[3] === '') open.push(m[1]);
      i = START_TAG.lastIndex;
    }
  }
  return rootSeen && open.length === 0;
}

/** True if every `&` in `text` (element content) starts a reference of a shape the scan above accepts. */
export function hasPlainReferences(text: string): boolean {
  for (let amp = text.indexOf('&'); amp !== -1; amp = text.indexOf('&', REFERENCE.lastIndex)) {
    REFERENCE.lastIndex = amp;
    if (!REFERENCE.test(text)) return false;
  }
  return true;
}

function isBlank(xml: string, from: number, to: number): boolean {
  for (let k = from; k < to; k++) {
    const c = xml.charCodeAt(k);
    if (c !== 0x20 && c !== 0x0a && c !== 0x09 && c !== 0x0d) return false;
  }
  return true;
}

function distinctNames(attributes: string): boolean {
  ATTRIBUTE_NAME.lastIndex = 0;
  const first = ATTRIBUTE_NAME.exec(attributes);
  const second = ATTRIBUTE_NAME.exec(attributes);
  if (!first || !second) return true; // the usual case: one attribute
  const seen = new Set([first[1], second[1]]);
  if (seen.size < 2) return false;
  for (let m = ATTRIBUTE_NAME.exec(attributes); m; m = ATTRIBUTE_NAME.exec(attributes)) {
    if (seen.has(m[1])) return false;
    seen.add(m[1]);
  }
  return true;
}

