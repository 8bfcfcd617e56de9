// Lazy syntax highlighting for the code view: a block is highlighted only when it comes near the
// viewport, and very large codes stay plain text, so a 10,000-line code or a 1 MB line keeps the
// view responsive. highlight.js core plus only the service's languages keeps the bundle small.
import type { LanguageFn } from 'highlight.js';
import hljs from 'highlight.js/lib/core';
import { HIGHLIGHTERS, type HighlighterName } from '../core/languages';
import actionscript from 'highlight.js/lib/languages/actionscript';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import cpp from 'highlight.js/lib/languages/cpp';
import csharp from 'highlight.js/lib/languages/csharp';
import delphi from 'highlight.js/lib/languages/delphi';
import erlang from 'highlight.js/lib/languages/erlang';
import haskell from 'highlight.js/lib/languages/haskell';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import lisp from 'highlight.js/lib/languages/lisp';
import perl from 'highlight.js/lib/languages/perl';
import php from 'highlight.js/lib/languages/php';
import python from 'highlight.js/lib/languages/python';
import ruby from 'highlight.js/lib/languages/ruby';
import vbnet from 'highlight.js/lib/languages/vbnet';

// Every grammar the language table names (the extension sends names from it): the record's type
// makes a grammar missing here, or one the table does not name, a compile error.
const GRAMMARS: Record<HighlighterName, LanguageFn> = { actionscript, bash, c, cpp, csharp, delphi, erlang, haskell,
  java, javascript, lisp, perl, php, python, ruby, vbnet };
for (const name of HIGHLIGHTERS) hljs.registerLanguage(name, GRAMMARS[name]);

/** Above either limit a block is shown as plain text: highlighting it would block the UI for seconds. */
export const HIGHLIGHT_MAX_CHARS = 200_000;
export const HIGHLIGHT_MAX_LINES = 5_000;

/** Whether `text` is small enough to highlight; stops counting at the limit. */
export function withinHighlightLimits(text: string): boolean {
  if (text.length > HIGHLIGHT_MAX_CHARS) return false;
  let lines = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) {
    if (++lines > HIGHLIGHT_MAX_LINES) return false;
  }
  return true;
}

export function isHighlightable(language: string): boolean {
  return language !== '' && hljs.getLanguage(language) !== undefined;
}

/** Highlights `code` blocks once each when they approach the viewport. One per rendered view. */
export class LazyHighlighter {
  private readonly pending = new Map<Element, { text: string; language: string }>();
  private readonly observer = new IntersectionObserver((entries) => this.onIntersect(entries), {
    rootMargin: '600px 0px',
  });

  /** `element` already shows `text` as plain text; it is replaced by highlighted markup when seen. */
  observe(element: HTMLElement, text: string, language: string): void {
    this.pending.set(element, { text, language });
    this.observer.observe(element);
  }

  dispose(): void {
    this.observer.disconnect();
    this.pending.clear();
  }

  private onIntersect(entries: IntersectionObserverEntry[]): void {
    for (const entry of entries) {
      if (!entry.isIntersecting) continue;
      const job = this.pending.get(entry.target);
      this.observer.unobserve(entry.target);
      this.pending.delete(entry.target);
      if (job && entry.target instanceof HTMLElement) highlightInto(entry.target, job.text, job.language);
    }
  }
}

function highlightInto(element: HTMLElement, text: string, language: string): void {
  try {
    const html = hljs.highlight(text, { language, ignoreIllegals: true }).value;
    // The one innerHTML in the view: highlight.js's own output for this string, whose text it escapes.
    element.innerHTML = html;
    element.classList.add('hljs');
  } catch {
    // A grammar that throws leaves the plain text that is already shown.
  }
}
