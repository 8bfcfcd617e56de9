// The code view's webview script: a `ready` handshake, then it renders what the extension sends.
// Data is written only with createElement/textContent (strangers wrote every string); links and
// buttons post messages, they never navigate. Every message in is checked by the shared protocol.
// A block whose code has `## Title` lines is shown section by section (src/api/sections.ts, split
// here as the extension splits it), each section with its own Insert at Cursor and Copy.
import {
  isWebUrl, parseToWebview,
  type BlockTarget, type CodeViewModel, type CodeViewState, type RefactorViewModel, type ToExtension,
} from '../protocol/codeView';
import { LazyHighlighter, isHighlightable, withinHighlightLimits } from './highlight';
import { canonicalServiceLanguage, highlightJsLanguage } from '../api/languages';
import { authorOf, titleOf } from '../api/names';
import { hasSections, sectionTitleOf, splitSections, type Section } from '../api/sections';

interface VsCodeApi {
  postMessage(message: ToExtension): void;
  setState(state: CodeViewState): void;
  getState(): unknown;
}
declare function acquireVsCodeApi(): VsCodeApi;

const FLASH_MS = 1600;
/** Above this many sections a block is shown whole: thousands of headings with buttons would stall the view. */
const MAX_SECTIONS = 200;

type Children = ReadonlyArray<Node | string | undefined>;

function el<K extends keyof HTMLElementTagNameMap>(tag: K, className?: string, children: Children = []):
  HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  for (const child of children) {
    if (child === undefined) continue;
    node.append(typeof child === 'string' ? document.createTextNode(child) : child);
  }
  return node;
}

function formatDate(iso: string | null): Node | undefined {
  if (iso === null) return undefined;
  const time = el('time', undefined, [new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })]);
  time.dateTime = iso;
  return time;
}

/** Wraps the code-view state (the vscode API handle stays in this closure, never global). */
function createView(vscode: VsCodeApi, root: HTMLElement) {
  let highlighter: LazyHighlighter | undefined;
  let pendingReveal: number | undefined;
  let flashTimer: number | undefined;

  const post = (message: ToExtension): void => vscode.postMessage(message);

  function button(label: string, message: ToExtension, className = 'action'): HTMLButtonElement {
    const b = el('button', className, [label]);
    b.type = 'button';
    b.addEventListener('click', () => post(message));
    return b;
  }

  /** An http(s) link that asks the extension to open it; anything else is shown as plain text. */
  function externalLink(label: string, url: string): Node {
    if (!isWebUrl(url)) return document.createTextNode(label);
    const b = button(label, { type: 'openExternal', url }, 'link');
    b.title = url;
    return b;
  }

  function replaceRoot(children: Children, busy = false): void {
    highlighter?.dispose();
    highlighter = undefined;
    root.replaceChildren(...children.filter((c): c is Node | string => c !== undefined));
    root.setAttribute('aria-busy', String(busy));
  }

  function codeBlock(text: string, language: string): HTMLElement {
    const code = el('code', undefined, [text]);
    const pre = el('pre', 'code', [code]);
    if (isHighlightable(language)) {
      if (withinHighlightLimits(text)) highlighter?.observe(code, text, language);
      else return el('div', undefined, [el('p', 'note', ['Large code: shown without highlighting.']), pre]);
    }
    return pre;
  }

  function toolbar(target: BlockTarget): HTMLElement {
    return el('div', 'toolbar', [
      button('Insert at Cursor', { type: 'insert', target }),
      target.kind === 'refactor' ? button('Compare with Original', { type: 'compareWithOriginal', refactorId: target.id }) : undefined,
      button('Copy', { type: 'copy', target }),
      button('Open as Document', { type: 'openDocument', target }),
    ]);
  }

  function sameLanguage(a: string, b: string): boolean {
    return canonicalServiceLanguage(a).toLowerCase() === canonicalServiceLanguage(b).toLowerCase();
  }

  /** One section: its heading (title, and language where it is not the block's), its own Insert and Copy, its code. */
  function sectionPart(block: BlockTarget, section: Section, index: number, blockLanguage: string, level: 'h2' | 'h4'): HTMLElement {
    const target = { ...block, section: index };
    const language = sameLanguage(section.language, blockLanguage) ? undefined : el('span', 'language', [section.language]);
    const part = el('section', 'part', [
      el('div', 'part-header', [
        el(level, 'part-title', [sectionTitleOf(section), language && ' ', language]),
        el('div', 'toolbar', [
          button('Insert at Cursor', { type: 'insert', target }),
          button('Copy', { type: 'copy', target }),
        ]),
      ]),
      codeBlock(section.text, highlightJsLanguage(section.language) ?? ''),
    ]);
    part.id = `${block.kind}-${block.id}-section-${index}`;
    return part;
  }

  /** A block's code: whole, or section by section under headings of `level` when its text has heading lines. */
  function blockCode(block: BlockTarget, text: string, language: string, highlightLanguage: string, level: 'h2' | 'h4'): Node[] {
    const sections = splitSections(text, language);
    if (!hasSections(sections) || sections.length > MAX_SECTIONS) return [codeBlock(text, highlightLanguage)];
    return sections.map((section, i) => sectionPart(block, section, i, language, level));
  }

  function comment(text: string): HTMLElement | undefined {
    return text.trim() === '' ? undefined : el('div', 'comment', [text]);
  }

  function meta(parts: Children): HTMLElement {
    const items = parts.filter((p): p is Node | string => p !== undefined);
    return el('p', 'meta', items.flatMap((p, i) => (i === 0 ? [p] : [el('span', 'sep', [' · ']), p])));
  }

  function codeHeader(code: CodeViewModel): HTMLElement {
    const author = externalLink(authorOf(code), code.userWebsite);
    const created = formatDate(code.createdAt);
    const updated = code.updatedAt !== code.createdAt ? formatDate(code.updatedAt) : undefined;
    return el('header', undefined, [
      el('h1', undefined, [titleOf(code)]),
      meta([
        el('span', 'language', [code.language || 'unknown language']),
        el('span', undefined, ['by ', author]),
        created && el('span', undefined, ['posted ', created]),
        updated && el('span', undefined, ['updated ', updated]),
        isWebUrl(code.pageUrl) ? externalLink('Open in Browser', code.pageUrl) : undefined,
      ]),
    ]);
  }

  function refactorSection(r: RefactorViewModel): HTMLElement {
    const author = externalLink(authorOf(r), r.userWebsite);
    const rating = r.rating === null ? 'not rated'
      : `rated ${r.rating}${r.ratingsCount === null ? '' : ` (${r.ratingsCount} ${r.ratingsCount === 1 ? 'vote' : 'votes'})`}`;
    const created = formatDate(r.createdAt);
    const target: BlockTarget = { kind: 'refactor', id: r.id };
    const section = el('section', 'block refactor', [
      el('h3', undefined, [titleOf(r)]),
      meta([el('span', undefined, ['by ', author]), rating, created]),
      comment(r.comment),
      toolbar(target),
      ...blockCode(target, r.code, r.language, r.highlightLanguage, 'h4'),
    ]);
    section.id = `refactor-${r.id}`;
    section.tabIndex = -1;
    return section;
  }

  function show(code: CodeViewModel, revealRefactorId: number | undefined): void {
    replaceRoot([]);
    highlighter = new LazyHighlighter();
    const block: BlockTarget = { kind: 'code', id: code.id };
    // The original has no heading of its own (the page's h1 names it): its sections' headings are h2.
    const original = el('section', 'block original', [
      comment(code.comment),
      toolbar(block),
      ...blockCode(block, code.code, code.language, code.highlightLanguage, 'h2'),
    ]);
    original.id = `code-${code.id}`;
    const heading = code.refactors.length === 0 ? 'No refactorings yet' : `Refactorings (${code.refactors.length})`;
    root.append(codeHeader(code), original, el('h2', undefined, [heading]), ...code.refactors.map(refactorSection));
    vscode.setState({ codeId: code.id });
    const target = revealRefactorId ?? pendingReveal;
    pendingReveal = undefined;
    if (target !== undefined) reveal(target);
  }

  function reveal(refactorId: number): void {
    const section = document.getElementById(`refactor-${refactorId}`);
    if (!section) {
      pendingReveal = refactorId; // a reveal that overtakes its `show` is applied when it arrives
      return;
    }
    section.scrollIntoView({ block: 'start' });
    // Blocks near the target lay out only once on screen (content-visibility: auto) and change height
    // when they do; scrolling again after that layout lands the target at the top for good.
    requestAnimationFrame(() => requestAnimationFrame(() => section.scrollIntoView({ block: 'start' })));
    section.focus({ preventScroll: true });
    section.classList.remove('flash');
    void section.offsetWidth; // restart the animation when the same section is revealed twice
    section.classList.add('flash');
    window.clearTimeout(flashTimer);
    flashTimer = window.setTimeout(() => section.classList.remove('flash'), FLASH_MS);
  }

  function loading(codeId: number | undefined): void {
    if (codeId !== undefined) vscode.setState({ codeId });
    replaceRoot([el('p', 'status', ['Loading…'])], true);
  }

  function error(message: string, codeId: number | undefined): void {
    if (codeId !== undefined) vscode.setState({ codeId });
    const box = el('div', 'error', [
      el('p', undefined, [message]),
      button('Retry', { type: 'retry' }),
    ]);
    box.setAttribute('role', 'alert');
    replaceRoot([box]);
  }

  return { show, reveal, loading, error };
}

function main(): void {
  const vscode = acquireVsCodeApi();
  const root = document.getElementById('root');
  if (!root) return;
  const view = createView(vscode, root);
  window.addEventListener('message', (event: MessageEvent<unknown>) => {
    const message = parseToWebview(event.data);
    if (!message) return; // not ours, or malformed: nothing is rendered from it
    switch (message.type) {
      case 'show': view.show(message.code, message.revealRefactorId); break;
      case 'loading': view.loading(message.codeId); break;
      case 'error': view.error(message.message, message.codeId); break;
      case 'reveal': view.reveal(message.refactorId); break;
    }
  });
  vscode.postMessage({ type: 'ready' });
}

main();
