// A code's sections, as the original service rendered them: a line `## Title` or `## Title [Language]`
// starts a new section. Pure (no vscode, DOM or node), so the code view's webview, which renders the
// sections, and the extension, which inserts and copies them, split the same text the same way.
//
// The rules, exactly:
// - Lines end at \r\n, \r or \n (as Insert at Cursor reads them).
// - A heading line starts with `##` in its first column, then at least one space or tab, then a
//   title with at least one non-whitespace character; spaces and tabs after the title are dropped.
//   `###`, `##` alone and an indented `##` are ordinary lines.
// - `## Title [Language]`: when the title ends in a bracket pair, set off from some text before it by
//   spaces or tabs, and the bracket (trimmed) names one of the service's languages by name or URL
//   slug in any lettercase (`[cs]`, `[C++]`, `[ruby]`), the section is in that language and its
//   title is the text before the bracket. Any other bracket (`[COBOL]`, `[constructor]`) stays part
//   of the title, and the section is in the code's own language, as every section without a bracket is.
// - A section's text runs from just after its heading line's line break to the start of the next
//   heading line (or the end of the code), exactly: it keeps its own line breaks, including the one
//   before the next heading and any blank lines, and is never trimmed. It can be empty.
// - Text before the first heading is a leading untitled section when it is not blank (whitespace
//   only); blank, it belongs to no section.
// - A code without a heading line is one untitled section holding the whole code.
// So the blank lead (if any), then each section's heading line and text in order, give back the
// code exactly.
import { canonicalServiceLanguage, isServiceLanguage } from './languages';

export interface Section {
  /** The heading's title; '' for the untitled section (text before the first heading, or a code with none). */
  title: string;
  /** The service's name for the section's language: its bracket's, else the code's own (as given). */
  language: string;
  /** The heading line as it stands in the code, line break included; '' for the untitled section. */
  heading: string;
  /** The section's content, exactly as in the code (see the rules above). */
  text: string;
}

const LINE_BREAK = /\r\n|\r|\n/g;

/** The sections of `code`, whose own language is `language`; always at least one. */
export function splitSections(code: string, language: string): Section[] {
  const headings: Array<{ start: number; end: number; title: string; language: string }> = [];
  const breaks = new RegExp(LINE_BREAK);
  for (let start = 0; start <= code.length;) {
    const found = breaks.exec(code);
    const lineEnd = found ? found.index : code.length;
    const next = found ? lineEnd + found[0].length : code.length + 1;
    if (code.startsWith('##', start)) { // parseHeading relies on this
      const heading = parseHeading(code.slice(start, lineEnd), language);
      if (heading) headings.push({ start, end: Math.min(next, code.length), ...heading });
    }
    start = next;
  }
  if (headings.length === 0) return [{ title: '', language, heading: '', text: code }];

  const sections: Section[] = [];
  const lead = code.slice(0, headings[0].start);
  if (lead.trim() !== '') sections.push({ title: '', language, heading: '', text: lead });
  headings.forEach((h, i) => {
    const end = headings[i + 1]?.start ?? code.length;
    sections.push({ title: h.title, language: h.language, heading: code.slice(h.start, h.end), text: code.slice(h.end, end) });
  });
  return sections;
}

/** True when the code had a heading line: the view then shows it section by section. */
export function hasSections(sections: readonly Section[]): boolean {
  return sections.some((s) => s.heading !== '');
}

/** How a section is named on screen: its title, or `Untitled` for the text before the first heading. */
export function sectionTitleOf(section: Section): string {
  return section.title || 'Untitled';
}

function isBlank(c: string | undefined): boolean {
  return c === ' ' || c === '\t';
}

/**
 * The title and language of a line that starts with `##` (without its line break), or undefined when
 * it is no heading. Indexing past either end of a string gives undefined, which is not blank: the
 * scans below stop there without bounds of their own.
 */
function parseHeading(line: string, codeLanguage: string): { title: string; language: string } | undefined {
  if (!isBlank(line[2])) return undefined;
  // Trimmed by hand: a trailing-whitespace regex backtracks quadratically on a long line of spaces.
  let from = 3;
  let to = line.length;
  while (isBlank(line[from])) from++;
  while (to > from && isBlank(line[to - 1])) to--;
  const title = line.slice(from, to);
  if (title.trim() === '') return undefined;

  const open = title.lastIndexOf('[');
  if (title.endsWith(']') && isBlank(title[open - 1])) {
    const bracket = title.slice(open + 1, -1);
    let before = open;
    while (isBlank(title[before - 1])) before--;
    const name = title.slice(0, before);
    if (!bracket.includes(']') && name.trim() !== '' && isServiceLanguage(bracket)) {
      return { title: name, language: canonicalServiceLanguage(bracket) };
    }
  }
  return { title, language: codeLanguage };
}
