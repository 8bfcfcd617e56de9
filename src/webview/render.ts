// The code view's elements, built from what the extension sends. Data is written only with
// createElement/textContent (strangers wrote every string); links and buttons post messages, they
// never navigate. A block whose code has `## Title` lines is shown section by section
// (src/core/sections.ts, split here as the extension splits it), each section with its own Insert at
// Cursor and Copy. Its words are the extension's, in VS Code's display language: the page carries
// the extension's l10n bundle and locale (html.ts), read here with @vscode/l10n. Every button names
// what it acts on for a screen reader, every code block takes keyboard focus (to scroll it), and the
// page has a main landmark with regions for the code and the refactorings under an h1, h2, h3 order.
import * as l10n from '@vscode/l10n';
import { type BlockTarget, type CodeViewModel, type RefactorViewModel, type ToExtension } from '../protocol/codeView';
import { bestRatedIds, isRefactoringOrder, ratingPhrase, REFACTORING_ORDERS, type RefactoringOrder } from '../core/ratings';
import { type LazyHighlighter, isHighlightable, withinHighlightLimits } from './highlight';
import { canonicalServiceLanguage, highlightJsLanguage } from '../core/languages';
import { authorOf, nameWords, ratingWords, titleOf } from '../core/names';
import { formatDateTime } from '../core/dates';
import { isHttpUrl } from '../core/httpUrl';
import { hasSections, splitSections, type Section } from '../core/sections';

/** Above this many sections a block is shown whole: thousands of headings with buttons would stall the view. */
const MAX_SECTIONS = 200;

export type Children = ReadonlyArray<Node | string | undefined>;

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, className?: string, children: Children = []):
  HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  for (const child of children) {
    if (child === undefined) continue;
    node.append(typeof child === 'string' ? document.createTextNode(child) : child);
  }
  return node;
}

/** VS Code's display language, and its translations when it has some (the page's data attributes). */
function configureLanguage(): string | undefined {
  const { l10n: bundle, locale } = document.body.dataset;
  try {
    const contents: unknown = JSON.parse(bundle ?? '{}');
    if (typeof contents === 'object' && contents !== null && !Array.isArray(contents)
      && Object.values(contents).every((v) => typeof v === 'string') && Object.keys(contents).length > 0) {
      l10n.config({ contents: contents as Record<string, string> });
    }
  } catch {
    // no usable translations: the English words stand
  }
  return locale || undefined;
}

const locale = configureLanguage();

// The extension's own words and date format (src/core), translated by the bundle the page carries.
const words = nameWords(l10n);
const rating = ratingWords(l10n);

/** The switch's choices, in the setting's order. */
function orderLabel(order: RefactoringOrder): string {
  switch (order) {
    case 'bestRated': return l10n.t('Best rated first');
    case 'newest': return l10n.t('Newest first');
    case 'oldest': return l10n.t('Oldest first');
  }
}

function formatDate(iso: string | null): HTMLElement | undefined {
  if (iso === null) return undefined;
  const time = el('time', undefined, [formatDateTime(new Date(iso), locale)]);
  time.dateTime = iso;
  return time;
}

/** Marks where `sentence` puts each node: its `{0}`-style argument when translated. */
const slot = (i: number): string => `\uE000${i}\uE000`;

/**
 * A translated sentence whose arguments are elements (a link, a date): `message` is translated with
 * `slot(i)` for each, and each slot is replaced by its node, so the words around them stay whole.
 */
function sentence(translated: string, ...nodes: Node[]): HTMLElement {
  const parts = translated.split(/\uE000(\d+)\uE000/);
  return el('span', undefined, parts.map((p, i) => (i % 2 === 0 ? p : nodes[Number(p)])).filter((p) => p !== ''));
}

/** One string a block is known by among the shown ones. */
export function blockKey(target: BlockTarget): string {
  return `${target.kind}-${target.id}`;
}

/** How a block is named in its buttons' accessible names: `code #20`, `refactoring #81`. */
function blockName(target: BlockTarget): string {
  return target.kind === 'code' ? l10n.t('code #{0}', target.id) : l10n.t('refactoring #{0}', target.id);
}

/** The page's h1, which a script may focus (tabindex -1) but Tab passes by. */
function pageHeading(text: string): HTMLHeadingElement {
  const h1 = el('h1', undefined, [text]);
  h1.tabIndex = -1;
  return h1;
}

/** Sets a Star button to say what clicking it does: Star, or Unstar once `on` (starred). */
export function markStar(b: HTMLButtonElement, target: BlockTarget, on: boolean): void {
  const label = on ? l10n.t('Unstar') : l10n.t('Star');
  b.textContent = label; // its ☆ or ★ is drawn by the stylesheet, silent to screen readers
  b.setAttribute('aria-label', on ? l10n.t('Unstar: {0}', blockName(target)) : l10n.t('Star: {0}', blockName(target)));
  b.dataset.starred = String(on);
}

function sameLanguage(a: string, b: string): boolean {
  return canonicalServiceLanguage(a).toLowerCase() === canonicalServiceLanguage(b).toLowerCase();
}

function comment(text: string): HTMLElement | undefined {
  return text.trim() === '' ? undefined : el('div', 'comment', [text]);
}

function meta(parts: Children): HTMLElement {
  const items = parts.filter((p): p is Node | string => p !== undefined);
  return el('p', 'meta', items.flatMap((p, i) => (i === 0 ? [p] : [el('span', 'sep', [' · ']), p])));
}

/** What rendering needs of the view: a way to post, the highlighter of the page being built, and its Star buttons. */
export interface RenderContext {
  post(message: ToExtension): void;
  /** Highlights the page's code blocks as they come near the viewport; none while loading or failed. */
  readonly highlighter?: LazyHighlighter;
  /** A block's Star button, which the view keeps to mark as the stars change. */
  starButton(target: BlockTarget): HTMLButtonElement;
}

/** A shown code's page: its nodes in order, and its refactorings' blocks with the element holding them and the switch. */
export interface CodePage {
  nodes: HTMLElement[];
  blocks: Array<{ refactor: RefactorViewModel; block: HTMLElement }>;
  list: HTMLElement;
  select: HTMLSelectElement | undefined;
}

/** Builds the view's pages; every button posts through the context. */
export class Renderer {
  constructor(private readonly view: RenderContext) {}

  /**
   * A button; `name`, when given, is what a screen reader says: the label with what it acts on
   * ("Insert at Cursor: refactoring #81"). The name starts with the visible label, so speech input
   * that says what it sees reaches it (WCAG 2.5.3, axe-core's label-content-name-mismatch).
   */
  private button(label: string, message: ToExtension, className = 'action', name?: string): HTMLButtonElement {
    const b = el('button', className, [label]);
    b.type = 'button';
    if (name !== undefined) b.setAttribute('aria-label', name);
    b.addEventListener('click', () => this.view.post(message));
    return b;
  }

  /** An http(s) link that asks the extension to open it; anything else is shown as plain text. */
  private externalLink(label: string, url: string): Node {
    if (!isHttpUrl(url)) return document.createTextNode(label);
    const b = this.button(label, { type: 'openExternal', url }, 'link');
    b.title = url;
    return b;
  }

  /** A block of code that takes keyboard focus, so a person can scroll it with the arrow keys. */
  private codeBlock(text: string, language: string, name: string): HTMLElement {
    const code = el('code', undefined, [text]);
    const pre = el('pre', 'code', [code]);
    pre.tabIndex = 0;
    pre.setAttribute('role', 'group');
    pre.setAttribute('aria-label', name);
    if (isHighlightable(language)) {
      if (withinHighlightLimits(text)) this.view.highlighter?.observe(code, text, language);
      else return el('div', undefined, [el('p', 'note', [l10n.t('Large code: shown without highlighting.')]), pre]);
    }
    return pre;
  }

  /** A block's buttons; `canRate`, `canDelete` and `canRefactor` add Rate…, Delete… and Refactor…, which need the person signed in. */
  private toolbar(target: BlockTarget, canRate = false, canDelete = false, canRefactor = false): HTMLElement {
    const what = blockName(target);
    return el('div', 'toolbar', [
      this.button(l10n.t('Insert at Cursor'), { type: 'insert', target }, 'action', l10n.t('Insert at Cursor: {0}', what)),
      target.kind === 'refactor'
        ? this.button(l10n.t('Compare with Original'), { type: 'compareWithOriginal', refactorId: target.id }, 'action', l10n.t('Compare with Original: {0}', what))
        : undefined,
      this.button(l10n.t('Copy'), { type: 'copy', target }, 'action', l10n.t('Copy {0}', what)),
      this.button(l10n.t('Open as Document'), { type: 'openDocument', target }, 'action', l10n.t('Open as Document: {0}', what)),
      this.view.starButton(target),
      canRate && target.kind === 'refactor' ? this.button(l10n.t('Rate…'), { type: 'rate', refactorId: target.id }, 'action', l10n.t('Rate…: {0}', what)) : undefined,
      canRefactor && target.kind === 'code' ? this.button(l10n.t('Refactor…'), { type: 'refactor' }, 'action', l10n.t('Refactor…: {0}', what)) : undefined,
      canDelete ? this.button(l10n.t('Delete…'), { type: 'delete', target }, 'action', l10n.t('Delete…: {0}', what)) : undefined,
    ]);
  }

  /** One section: its heading (title, and language where it is not the block's), its own Insert and Copy, its code. */
  private sectionPart(block: BlockTarget, section: Section, index: number, blockLanguage: string, level: 'h2' | 'h4'): HTMLElement {
    const target = { ...block, section: index };
    const language = sameLanguage(section.language, blockLanguage) ? undefined : el('span', 'language', [section.language]);
    const title = section.title || l10n.t('Untitled');
    const what = l10n.t('section {0} of {1}', title, blockName(block));
    const part = el('section', 'part', [
      el('div', 'part-header', [
        el(level, 'part-title', [title, language && ' ', language]),
        el('div', 'toolbar', [
          this.button(l10n.t('Insert at Cursor'), { type: 'insert', target }, 'action', l10n.t('Insert at Cursor: {0}', what)),
          this.button(l10n.t('Copy'), { type: 'copy', target }, 'action', l10n.t('Copy {0}', what)),
        ]),
      ]),
      this.codeBlock(section.text, highlightJsLanguage(section.language) ?? '', l10n.t('Code of {0}', what)),
    ]);
    part.id = `${block.kind}-${block.id}-section-${index}`;
    return part;
  }

  /** A block's code: whole, or section by section under headings of `level` when its text has heading lines. */
  private blockCode(block: BlockTarget, text: string, language: string, highlightLanguage: string, level: 'h2' | 'h4'): Node[] {
    const sections = splitSections(text, language);
    if (!hasSections(sections) || sections.length > MAX_SECTIONS) return [this.codeBlock(text, highlightLanguage, l10n.t('Code of {0}', blockName(block)))];
    return sections.map((section, i) => this.sectionPart(block, section, i, language, level));
  }

  private codeHeader(code: CodeViewModel): HTMLElement {
    const author = this.externalLink(authorOf(code, words), code.userWebsite);
    const created = formatDate(code.createdAt);
    const updated = code.updatedAt !== code.createdAt ? formatDate(code.updatedAt) : undefined;
    return el('header', undefined, [
      pageHeading(titleOf(code, words)),
      meta([
        el('span', 'language', [code.language || l10n.t('unknown language')]),
        sentence(l10n.t('by {0}', slot(0)), author),
        created && sentence(l10n.t('posted {0}', slot(0)), created),
        updated && sentence(l10n.t('updated {0}', slot(0)), updated),
        isHttpUrl(code.pageUrl) ? this.externalLink(l10n.t('Open in Browser'), code.pageUrl) : undefined,
      ]),
    ]);
  }

  /**
   * A refactoring's block. The best-rated one's heading carries a "Best rated" badge: visible text
   * inside the heading, so a screen reader's heading list and the region's name say it too.
   */
  private refactorSection(r: RefactorViewModel, best: boolean, me: number | undefined, codeUserId: number | null): HTMLElement {
    const author = this.externalLink(authorOf(r, words), r.userWebsite);
    const created = formatDate(r.createdAt);
    const target: BlockTarget = { kind: 'refactor', id: r.id };
    const heading = el('h3', undefined, [titleOf(r, words), best ? ' ' : undefined, best ? el('span', 'badge best', [l10n.t('Best rated')]) : undefined]);
    heading.id = `refactor-${r.id}-title`;
    const section = el('section', 'block refactor', [
      heading,
      meta([sentence(l10n.t('by {0}', slot(0)), author), ratingPhrase(r, rating, locale), created]),
      comment(r.comment),
      // One's own refactoring is not rated by oneself; it is deleted by its author or the code's.
      this.toolbar(target, me !== undefined && r.userId !== me, me !== undefined && (r.userId === me || codeUserId === me)),
      ...this.blockCode(target, r.code, r.language, r.highlightLanguage, 'h4'),
    ]);
    section.id = `refactor-${r.id}`;
    section.tabIndex = -1;
    section.setAttribute('aria-labelledby', heading.id);
    return section;
  }

  /**
   * The switch beside the refactorings' heading: a labelled select, so every screen reader and
   * keyboard knows it; `picked` gets each order chosen.
   */
  private orderSwitch(order: RefactoringOrder, picked: (order: RefactoringOrder) => void): HTMLSelectElement {
    const select = el('select', undefined, REFACTORING_ORDERS.map((o) => {
      const option = el('option', undefined, [orderLabel(o)]);
      option.value = o;
      return option;
    }));
    select.id = 'refactoring-order';
    select.value = order;
    select.addEventListener('change', () => {
      if (!isRefactoringOrder(select.value)) return;
      picked(select.value);
    });
    return select;
  }

  /**
   * A code's page: its header, the note (what is shown is a kept copy), the original and the
   * refactorings, whose blocks the view puts in order; `picked` gets each order the switch picks.
   */
  codePage(code: CodeViewModel, order: RefactoringOrder, note: string | undefined, me: number | undefined, picked: (order: RefactoringOrder) => void): CodePage {
    const block: BlockTarget = { kind: 'code', id: code.id };
    // The original has no heading of its own (the page's h1 names it): its sections' headings are h2.
    const original = el('section', 'block original', [
      comment(code.comment),
      this.toolbar(block, false, me !== undefined && code.userId === me, me !== undefined),
      ...this.blockCode(block, code.code, code.language, code.highlightLanguage, 'h2'),
    ]);
    original.id = `code-${code.id}`;
    original.setAttribute('aria-label', l10n.t('The code'));
    const heading = el('h2', undefined, [code.refactors.length === 0 ? l10n.t('No refactorings yet') : l10n.t('Refactorings ({0})', code.refactors.length)]);
    heading.id = 'refactorings-title';
    // A switch only where there is something to order.
    const select = code.refactors.length > 1 ? this.orderSwitch(order, picked) : undefined;
    let control: HTMLElement | undefined;
    if (select) {
      const label = el('label', undefined, [l10n.t('Order')]);
      label.htmlFor = select.id;
      control = el('div', 'order', [label, select]);
    }
    const best = bestRatedIds(code.refactors);
    const blocks = code.refactors.map((refactor) => ({ refactor, block: this.refactorSection(refactor, best.has(refactor.id), me, code.userId) }));
    const list = el('div', 'refactoring-list');
    const refactorings = el('section', 'refactorings', [el('div', 'refactorings-header', [heading, control]), list]);
    refactorings.setAttribute('aria-labelledby', heading.id);
    const notice = note === undefined ? undefined : el('p', 'note kept', [note]);
    if (notice) notice.setAttribute('role', 'status');
    const nodes = [this.codeHeader(code), notice, original, refactorings].filter((n): n is HTMLElement => n !== undefined);
    return { nodes, blocks, list, select };
  }

  /** The page while the code loads. */
  loadingPage(codeId: number | undefined): HTMLElement[] {
    const status = el('p', 'status', [l10n.t('Loading…')]);
    status.setAttribute('role', 'status');
    return [pageHeading(codeId === undefined ? l10n.t('Refactor Browser') : words.code(codeId)), status];
  }

  /** The page of a code that could not be shown: the one-line error, with Retry. */
  errorPage(message: string, codeId: number | undefined): HTMLElement[] {
    const box = el('div', 'error', [
      el('p', undefined, [message]),
      this.button(l10n.t('Retry'), { type: 'retry' }),
    ]);
    box.setAttribute('role', 'alert');
    // The page keeps its heading, as the tab does: a screen reader's heading list still says which code.
    return [pageHeading(codeId === undefined ? l10n.t('Refactor Browser') : words.code(codeId)), box];
  }
}
