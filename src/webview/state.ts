// The code view's state in the webview: what is shown (loading, a code, an error), the highlighter
// of the shown code, which blocks are starred, and a reveal that came before its code. The
// refactorings show in the order of refactorBrowser.refactoringOrder (src/core/ratings.ts): the
// switch beside their heading reorders them here at once and asks the extension to remember it.
import type { BlockTarget, CodeViewModel, CodeViewState, RefactorViewModel, ToExtension } from '../protocol/codeView';
import { compareRefactorings, type RefactoringOrder } from '../core/ratings';
import { LazyHighlighter } from './highlight';
import { blockKey, el, markStar, Renderer, type RenderContext } from './render';

export interface VsCodeApi {
  postMessage(message: ToExtension): void;
  setState(state: CodeViewState): void;
  getState(): unknown;
}

const FLASH_MS = 1600;

/** The code view's state (the vscode API handle stays in this object, never global). */
export class CodeView implements RenderContext {
  highlighter: LazyHighlighter | undefined;
  private pendingReveal: number | undefined;
  private flashTimer: number | undefined;
  /** What is shown of the refactorings: each with its block, the element holding the blocks, and the switch. */
  private shown: { blocks: Array<{ refactor: RefactorViewModel; block: HTMLElement }>; list: HTMLElement; select: HTMLSelectElement | undefined } | undefined;
  /** Each shown block's Star button, by `blockKey`, and the blocks that are starred. */
  private readonly starButtons = new Map<string, { button: HTMLButtonElement; target: BlockTarget }>();
  private starred = new Set<string>();
  private readonly render = new Renderer(this);

  constructor(private readonly vscode: VsCodeApi, private readonly root: HTMLElement) {}

  post(message: ToExtension): void {
    this.vscode.postMessage(message);
  }

  private replaceRoot(children: readonly Node[], busy = false): void {
    this.highlighter?.dispose();
    this.highlighter = undefined;
    this.shown = undefined;
    this.starButtons.clear();
    this.root.replaceChildren(...children);
    this.root.setAttribute('aria-busy', String(busy));
  }

  /**
   * After a re-render the focused element is gone and focus falls to the body: it goes to the page's
   * heading instead, so a keyboard or screen reader user goes on from there (and hears which code).
   * Only while the page has focus: a view updating in the background takes no focus from the editor.
   */
  private focusHeading(): void {
    if (!document.hasFocus()) return;
    this.root.querySelector('h1')?.focus({ preventScroll: true });
  }

  /**
   * A block's Star button: it says what clicking it does (Star, or Unstar once starred), and the
   * extension answers with what is starred, which sets it.
   */
  starButton(target: BlockTarget): HTMLButtonElement {
    const b = el('button', 'action star');
    b.type = 'button';
    b.addEventListener('click', () => this.post({ type: 'star', target, starred: !this.starred.has(blockKey(target)) }));
    this.starButtons.set(blockKey(target), { button: b, target });
    markStar(b, target, this.starred.has(blockKey(target)));
    return b;
  }

  markStars(targets: readonly BlockTarget[]): void {
    this.starred = new Set(targets.map(blockKey));
    for (const { button: b, target } of this.starButtons.values()) markStar(b, target, this.starred.has(blockKey(target)));
  }

  /** Puts the refactorings' blocks in `order`, moving the elements: nothing is rendered or highlighted again. */
  arrange(order: RefactoringOrder): void {
    const shown = this.shown;
    if (!shown) return;
    if (shown.select && shown.select.value !== order) shown.select.value = order;
    const compare = compareRefactorings(order);
    const blocks = [...shown.blocks].sort((a, b) => compare(a.refactor, b.refactor)).map((b) => b.block);
    const list = shown.list;
    if (blocks.every((b, i) => list.children[i] === b)) return;
    list.append(...blocks);
  }

  show(code: CodeViewModel, order: RefactoringOrder, starredBlocks: readonly BlockTarget[], note: string | undefined, revealRefactorId: number | undefined, me: number | undefined): void {
    this.replaceRoot([]);
    this.starred = new Set(starredBlocks.map(blockKey));
    this.highlighter = new LazyHighlighter();
    const page = this.render.codePage(code, order, note, me, (picked) => {
      this.arrange(picked);
      this.post({ type: 'setOrder', order: picked });
    });
    this.shown = { blocks: page.blocks, list: page.list, select: page.select };
    this.arrange(order);
    this.root.append(...page.nodes);
    this.vscode.setState({ codeId: code.id });
    const target = revealRefactorId ?? this.pendingReveal;
    this.pendingReveal = undefined;
    if (target !== undefined) this.reveal(target);
    else this.focusHeading();
  }

  reveal(refactorId: number): void {
    const section = document.getElementById(`refactor-${refactorId}`);
    if (!section) {
      this.pendingReveal = refactorId; // a reveal that overtakes its `show` is applied when it arrives
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
    window.clearTimeout(this.flashTimer);
    this.flashTimer = window.setTimeout(() => section.classList.remove('flash'), FLASH_MS);
  }

  loading(codeId: number | undefined): void {
    if (codeId !== undefined) this.vscode.setState({ codeId });
    this.replaceRoot(this.render.loadingPage(codeId), true);
    this.focusHeading();
  }

  error(message: string, codeId: number | undefined): void {
    if (codeId !== undefined) this.vscode.setState({ codeId });
    this.replaceRoot(this.render.errorPage(message, codeId));
    this.focusHeading();
  }
}
