// The launcher's side of the UI verbs in protocol.ts: each one done on the workbench page with
// Playwright, as a person would (clicks, keys, menus), and read back from the DOM.
import * as path from 'node:path';
import { promises as fs } from 'node:fs';
import type { Frame, Locator, Page } from 'playwright-core';
import { isScreenshotName, type AxeViolation, type DomInfo, type ElementInfo, type Target, type UiRequest } from './protocol';

type AriaRole = Parameters<Page['getByRole']>[0];
const DEFAULT_TIMEOUT_MS = 15_000;

/** The little of the DOM the page-side callbacks use (this project compiles without the DOM lib). */
interface DomElement {
  innerText?: string;
  textContent: string | null;
  style: { top: string };
  getAttribute(name: string): string | null;
  querySelectorAll(selector: string): Iterable<DomElement> & ArrayLike<DomElement>;
}

export function locate(page: Page | Frame, target: Target): Locator {
  const scope = target.within ? page.locator(target.within) : page;
  let loc: Locator;
  if (target.role) {
    loc = scope.getByRole(target.role as AriaRole, target.name === undefined ? {} : { name: target.name, exact: target.exact ?? false });
    if (target.css) loc = loc.and(page.locator(target.css));
  } else if (target.css) {
    loc = scope.locator(target.css);
  } else {
    throw new Error('a target needs a role or a css selector');
  }
  if (target.hasText !== undefined) loc = loc.filter({ hasText: target.hasText });
  return target.nth === undefined ? loc : loc.nth(target.nth);
}

/** The element fields `dom` reads (no DOM lib here). */
interface DomElementFull {
  tagName: string;
  value?: unknown;
  textContent: string | null;
  attributes: ArrayLike<{ name: string; value: string }>;
  getBoundingClientRect(): { top: number; bottom: number };
  ownerDocument: { defaultView: { innerHeight: number } | null };
}

async function domOf(loc: Locator, maxText: number): Promise<DomInfo[]> {
  return loc.evaluateAll(
    (els, max) =>
      (els as unknown as DomElementFull[]).map((el) => {
        const text = el.textContent ?? '';
        return {
          tag: el.tagName.toLowerCase(),
          attributes: Object.fromEntries(Array.from(el.attributes, (a) => [a.name, a.value])),
          text: text.slice(0, max),
          textLength: text.length,
          top: Math.round(el.getBoundingClientRect().top),
          viewportHeight: el.ownerDocument.defaultView?.innerHeight ?? 0,
          ...(typeof el.value === 'string' && /^(SELECT|INPUT|TEXTAREA)$/.test(el.tagName) ? { value: el.value } : {}),
        };
      }),
    maxText,
  );
}

/** The first webview content frame whose body text contains `frameText` (any, without it); waits up to the deadline. */
async function webviewFrame(page: Page, frameText: string | undefined, timeout: number): Promise<Frame> {
  const deadline = Date.now() + timeout;
  for (;;) {
    for (const frame of webviewContentFrames(page)) {
      const text = await frame.locator('body').innerText({ timeout: 1000 }).catch(() => '');
      if (frameText === undefined || text.includes(frameText)) return frame;
    }
    if (Date.now() > deadline) throw new Error(`no webview frame${frameText === undefined ? '' : ` with ${JSON.stringify(frameText)}`}`);
    await page.waitForTimeout(100);
  }
}

/** Frames whose parent is VS Code's webview host page: the frames that hold the webview's HTML. */
function webviewContentFrames(page: Page): Frame[] {
  return page.frames().filter((f) => {
    const parent = f.parentFrame();
    return parent !== null && /\/webview\/browser\/pre\/index\.html/.test(parent.url());
  });
}

/**
 * The first element matching `target` in the first webview content frame whose text contains
 * `frameText` (any, without it) and that has one; waits for such a frame and element up to the deadline.
 */
async function webviewElement(page: Page, target: Target, frameText: string | undefined, deadline: number): Promise<Locator> {
  for (;;) {
    for (const frame of webviewContentFrames(page)) {
      const text = await frame.locator('body').innerText({ timeout: 1000 }).catch(() => '');
      if (frameText !== undefined && !text.includes(frameText)) continue;
      const loc = locate(frame, target).first();
      if ((await loc.count()) > 0) return loc;
    }
    if (Date.now() > deadline) throw new Error(`no webview frame${frameText === undefined ? '' : ` with ${JSON.stringify(frameText)}`} has ${JSON.stringify(target)}`);
    await page.waitForTimeout(100);
  }
}

async function elementsOf(loc: Locator, attributes: string[]): Promise<ElementInfo[]> {
  return loc.evaluateAll(
    (els, names) =>
      (els as unknown as DomElement[]).map((el) => ({
        text: el.innerText ?? el.textContent ?? '',
        attributes: Object.fromEntries(names.map((n) => [n, el.getAttribute(n)])),
      })),
    attributes,
  );
}

/** The focused element, as focusRing reads it (no DOM lib here). */
interface FocusedElement {
  tagName: string;
  getAttribute(name: string): string | null;
  matches(css: string): boolean;
}

/** What axe.run resolves to, the part read here. */
interface AxeResults {
  violations: Array<{ id: string; impact: AxeViolation['impact']; help: string; nodes: Array<{ target: string[]; html: string }> }>;
}

let axe: Promise<string> | undefined;

/** axe-core's browser build (node_modules/axe-core/axe.min.js), read once. */
function axeSource(): Promise<string> {
  axe ??= fs.readFile(require.resolve('axe-core/axe.min.js'), 'utf8');
  return axe;
}

/** Waits up to `timeout` ms for `loc` to be visible; says whether it is. */
function shows(loc: Locator, timeout: number): Promise<boolean> {
  return loc.waitFor({ state: 'visible', timeout }).then(() => true, () => false);
}

/**
 * Right-clicks `target` and chooses `name` in the context menu it opens (VS Code draws its menus in
 * the page in the browser). Made to hold on a loaded machine, where the first version (click the item
 * until the menu closes) timed out once:
 * - a menu that does not show the item (not opened, or closed again by a re-render) is dismissed and
 *   the row right-clicked again, until the deadline;
 * - the item is chosen as a keyboard user does, pointed at (which focuses it) and Enter, not clicked:
 *   a menu item ignores mouse-ups for its first 100 ms (a timer, late under load) and runs a click's
 *   action in a later task, so a click can neither be known to have landed nor be repeated safely
 *   (a second click could run the command twice, or wait for an item already gone).
 */
async function chooseFromContextMenu(page: Page, target: Target, name: string, timeout: number): Promise<void> {
  const deadline = Date.now() + timeout;
  const left = (): number => Math.max(1000, deadline - Date.now());
  const menu = page.locator('.context-view .monaco-menu');
  const item = menu.getByRole('menuitem', { name }).first();
  for (let attempt = 1; ; attempt++) {
    await locate(page, target).first().click({ button: 'right', timeout: left() });
    if (await shows(item, Math.min(2000 * attempt, left()))) break;
    if (Date.now() >= deadline) {
      const items = await menu.getByRole('menuitem').allInnerTexts().catch(() => []);
      throw new Error(items.length === 0
        ? `no context menu opened on ${JSON.stringify(target)} in ${attempt} right-clicks`
        : `the context menu has no ${JSON.stringify(name)}: it shows ${JSON.stringify(items)}`);
    }
    // Only a menu is dismissed: Escape in the tree would clear a selection the command is to act on.
    if (await menu.first().isVisible()) await page.keyboard.press('Escape');
  }
  const focused = menu.locator('li.action-item.focused').getByRole('menuitem', { name });
  for (;;) {
    // The menu focuses the item a pointer moves onto; from off the menu, so that the move is seen.
    await page.mouse.move(0, 0);
    await item.hover({ timeout: left() });
    if (await shows(focused, Math.min(2000, left()))) break;
    if (Date.now() >= deadline) throw new Error(`pointing at ${JSON.stringify(name)} in the context menu did not select it`);
  }
  await page.keyboard.press('Enter');
  const closed = await menu.first().waitFor({ state: 'hidden', timeout: left() }).then(() => true, () => false);
  if (!closed) throw new Error(`the context menu stayed open after choosing ${JSON.stringify(name)}`);
}

/** Does one UI request; returns the verb's result (see UiVerbs) or throws with a readable reason. */
export async function perform(page: Page, request: UiRequest, screenshotDir: string): Promise<unknown> {
  const timeout = request.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  switch (request.verb) {
    case 'click':
      await locate(page, request.target).first().click({ button: request.button ?? 'left', clickCount: request.count ?? 1, modifiers: request.modifiers, timeout });
      return {};
    case 'contextMenu':
      await chooseFromContextMenu(page, request.target, request.item, timeout);
      return {};
    case 'press':
      await page.keyboard.press(request.keys);
      return {};
    case 'type':
      await page.keyboard.type(request.text);
      return {};
    case 'query': {
      const loc = locate(page, request.target);
      const atLeast = request.atLeast ?? 0;
      if (atLeast > 0) await loc.nth(atLeast - 1).waitFor({ state: 'attached', timeout });
      return { elements: await elementsOf(loc, request.attributes ?? []) };
    }
    case 'waitFor':
      await locate(page, request.target).first().waitFor({ state: request.state, timeout });
      return {};
    case 'screenshot': {
      if (!isScreenshotName(request.name)) throw new Error(`not a screenshot name: ${JSON.stringify(request.name)}`);
      const file = path.join(screenshotDir, `${request.name}.png`);
      await fs.mkdir(screenshotDir, { recursive: true });
      if (request.target) await locate(page, request.target).first().screenshot({ path: file, timeout });
      else await page.screenshot({ path: file, timeout });
      return { path: file };
    }
    case 'webviewClick': {
      const deadline = Date.now() + timeout;
      const loc = await webviewElement(page, request.target, request.frameText, deadline);
      await loc.click({ timeout: Math.max(1000, deadline - Date.now()) });
      return {};
    }
    case 'webviewSelect': {
      const deadline = Date.now() + timeout;
      const loc = await webviewElement(page, request.target, request.frameText, deadline);
      await loc.selectOption(request.value, { timeout: Math.max(1000, deadline - Date.now()) });
      return {};
    }
    case 'webviewFrames': {
      // A frame can go away while it is read (a webview closed or rebuilt meanwhile): leave it out.
      const read = await Promise.all(
        webviewContentFrames(page).map(async (f) => {
          try {
            return { url: f.url(), text: await f.locator('body').innerText({ timeout }) };
          } catch (err) {
            if (f.isDetached()) return undefined;
            throw err;
          }
        }),
      );
      return { frames: read.filter((f) => f !== undefined) };
    }
    case 'hover':
      await locate(page, request.target).first().hover({ timeout });
      return {};
    case 'dom': {
      const scope = request.webview ? await webviewFrame(page, request.frameText, timeout) : page;
      return { elements: await domOf(locate(scope, request.target), request.maxText ?? 300) };
    }
    case 'axe': {
      const frame = await webviewFrame(page, request.frameText, timeout);
      // Evaluated through the browser's debugging protocol, which the webview's CSP (scripts by nonce
      // only) does not govern: the page itself gets no way to run it.
      await frame.evaluate(await axeSource());
      const violations = await frame.evaluate(async () => {
        const axe = (globalThis as unknown as { axe: { run(context: unknown, options: unknown): Promise<AxeResults> } }).axe;
        const results = await axe.run((globalThis as unknown as { document: unknown }).document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } });
        return results.violations.map((v) => ({
          id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => `${n.target.join(' ')}: ${n.html.slice(0, 160)}`),
        }));
      });
      return { violations };
    }
    case 'focusRing': {
      const frame = await webviewFrame(page, request.frameText, timeout);
      await frame.locator('body').focus({ timeout });
      for (let i = 0; ; i++) {
        await page.keyboard.press('Tab');
        const reached = await frame.evaluate((css) => {
          const el = (globalThis as unknown as { document: { activeElement: FocusedElement | null } }).document.activeElement;
          return el?.matches(css) ?? false;
        }, request.until);
        if (reached) break;
        if (i === 50) throw new Error(`50 presses of Tab never reached ${request.until}`);
      }
      return frame.evaluate(() => {
        const doc = (globalThis as unknown as { document: { activeElement: FocusedElement | null; body: { className: string } } }).document;
        const el = doc.activeElement;
        const style = el ? (globalThis as unknown as { getComputedStyle(e: unknown): Record<string, string> }).getComputedStyle(el) : undefined;
        return {
          tag: el?.tagName.toLowerCase() ?? '',
          ariaLabel: el?.getAttribute('aria-label') ?? null,
          outlineStyle: style?.outlineStyle ?? '',
          outlineWidth: style?.outlineWidth ?? '',
          outlineColor: style?.outlineColor ?? '',
          bodyClass: doc.body.className,
        };
      });
    }
    case 'editorText': {
      const lines = page.locator('.editor-group-container.active .monaco-editor .view-lines').first();
      await lines.waitFor({ state: 'visible', timeout });
      // Rendered lines are absolutely positioned and may be in any DOM order: sort by their top.
      const text = await lines.evaluate((el) =>
        Array.from((el as unknown as DomElement).querySelectorAll('.view-line'))
          .sort((a, b) => parseFloat(a.style.top) - parseFloat(b.style.top))
          .map((l) => (l.textContent ?? '').replace(/\u00a0/g, ' '))
          .join('\n'),
      );
      return { text };
    }
    default: {
      const unknownVerb: never = request;
      throw new Error(`unknown UI verb ${JSON.stringify((unknownVerb as { verb: unknown }).verb)}`);
    }
  }
}
