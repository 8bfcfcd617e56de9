// The messages between the integration suite and the launcher that drives the browser.
//
// Why a bridge: the suite runs inside VS Code's extension host (the Node one or the browser's web
// worker one), but Playwright's page lives in the launcher (test/runners/codeServer.ts). The launcher
// serves a tiny loopback HTTP endpoint (with CORS, since the web worker's fetch is cross-origin); its
// URL reaches the suite in the user settings (RUN_SETTINGS: the web worker has no environment).
// Through it the suite streams mocha's report lines (so a dying extension host still leaves its
// output behind), reports its result, asks for UI actions on the workbench it runs in, and, in the web
// worker, which cannot listen on a socket, asks for the loopback servers its tests use
// (test/services/protocol.ts). Both sides import these files and nothing else of each other.
//
// Adding a UI test: in a test under test/integration/, `const ui = uiOrSkip(this)` (ui.ts), then e.g.
//   await ui.click({ role: 'tab', name: 'Refactor Browser' });
//   const rows = await ui.query({ css: '.pane-body [role=treeitem]' }, ['aria-level']);
//   await ui.contextMenu({ role: 'treeitem', name: 'Some code' }, 'Copy Code');
// A new kind of action is a new entry in UiVerbs plus one case in test/ui/actions.ts.
import { isServiceRequest, type ServiceRequest } from '../services/protocol';

/** The extension hosts a run can use: VS Code's Node one, or the browser's web worker one (VS Code for the Web). */
export type Host = 'node' | 'web';

/**
 * The section of the user settings the launcher writes for a run: `bridge` (the bridge's URL),
 * `host` (the extension host it asked for), `grep` (run only the tests whose full title matches) and
 * `locale` (VS Code was started in that display language: run the tests in test/integration/locale/).
 * Unknown to VS Code, which still hands them to getConfiguration.
 */
export const RUN_SETTINGS = 'refactorBrowserTest';
export interface RunSettings {
  bridge: string;
  host: Host;
  grep?: string;
  locale?: string;
}

/**
 * Which element(s) an action is about: an ARIA role with an accessible name (how a person and a
 * screen reader see the workbench), or a CSS selector for what has no role. `within` narrows either
 * to a CSS scope, `hasText` keeps elements containing that text, `nth` picks one of several matches.
 */
export interface Target {
  role?: string;
  name?: string;
  /** Match `name` exactly instead of as a case-insensitive substring. */
  exact?: boolean;
  css?: string;
  within?: string;
  hasText?: string;
  nth?: number;
}

/** What `query` returns per matched element. */
export interface ElementInfo {
  text: string;
  attributes: Record<string, string | null>;
}

/** What `dom` returns per matched element: every attribute, so `on*` handlers and `javascript:` values show. */
export interface DomInfo {
  /** Lower-case tag name. */
  tag: string;
  attributes: Record<string, string>;
  /** textContent, cut at `maxText` characters. */
  text: string;
  textLength: number;
  /** Where the element's top is, in CSS pixels from the top of its frame's viewport (so scrolling shows). */
  top: number;
  viewportHeight: number;
  /** The value a form control holds now (a select's chosen option), which no attribute says; absent for other elements. */
  value?: string;
}

/** One webview's content frame. */
export interface FrameInfo {
  url: string;
  text: string;
}

/** No fields. */
export type Empty = Record<never, never>;

/** Each verb's request fields and result. */
export interface UiVerbs {
  /** Clicks the element (waits until it is visible and enabled). */
  click: { req: { target: Target; button?: 'left' | 'right'; count?: number; modifiers?: Array<'Shift' | 'ControlOrMeta' | 'Alt'> }; res: Empty };
  /** Right-clicks the element, then clicks the context-menu entry with that label. */
  contextMenu: { req: { target: Target; item: string }; res: Empty };
  /** Keyboard keys in Playwright's notation, e.g. `Enter`, `Control+Shift+P`. */
  press: { req: { keys: string }; res: Empty };
  /** Types text into whatever has focus. */
  type: { req: { text: string }; res: Empty };
  /**
   * Reads every matching element's visible text and the named attributes. With `atLeast`, first
   * waits until that many match (for rows that appear after a fetch).
   */
  query: { req: { target: Target; attributes?: string[]; atLeast?: number }; res: { elements: ElementInfo[] } };
  /** Waits until the (first) matching element reaches the state. */
  waitFor: { req: { target: Target; state: 'visible' | 'hidden' | 'attached' | 'detached' }; res: Empty };
  /** Saves a PNG of the page (or of one element) as media/screenshots/<name>.png. */
  screenshot: { req: { name: string; target?: Target }; res: { path: string } };
  /**
   * Clicks an element inside the first webview content frame whose text contains `frameText`
   * (any webview without it); waits for such a frame and element up to the timeout.
   */
  webviewClick: { req: { frameText?: string; target: Target }; res: Empty };
  /** Chooses the option with this value in a select inside a webview content frame, found as webviewClick finds its element. */
  webviewSelect: { req: { frameText?: string; target: Target; value: string }; res: Empty };
  /** The text of every webview's content frame. */
  webviewFrames: { req: Empty; res: { frames: FrameInfo[] } };
  /** Moves the mouse over the element (tree rows then show their tooltip). */
  hover: { req: { target: Target }; res: Empty };
  /**
   * Every element matching `target` with all its attributes, on the workbench page or, with
   * `webview`, in the first webview content frame whose text contains `frameText` (waits for one).
   */
  dom: { req: { target: Target; webview?: boolean; frameText?: string; maxText?: number }; res: { elements: DomInfo[] } };
  /** The text the active editor shows (its rendered lines, top to bottom). */
  editorText: { req: Empty; res: { text: string } };
  /**
   * Runs the axe-core accessibility engine (WCAG 2 A and AA rules) in the first webview content
   * frame whose text contains `frameText`; returns what it reports as violations.
   */
  axe: { req: { frameText?: string }; res: { violations: AxeViolation[] } };
  /**
   * In the first webview content frame whose text contains `frameText`: focuses its page, presses Tab
   * as a keyboard user would until the focused element matches the CSS selector `until` (at most 50
   * times), and reports that element and its focus ring.
   */
  focusRing: { req: { frameText?: string; until: string }; res: FocusRing };
}

/** The element keyboard focus is on, and how its outline is drawn. */
export interface FocusRing {
  tag: string;
  ariaLabel: string | null;
  outlineStyle: string;
  outlineWidth: string;
  outlineColor: string;
  /** The webview body's classes: the theme kind VS Code gave the page. */
  bodyClass: string;
}

/** One rule axe-core finds broken, with the elements that break it. */
export interface AxeViolation {
  id: string;
  impact: 'minor' | 'moderate' | 'serious' | 'critical' | null;
  help: string;
  /** Each offending element's selector and HTML, cut short. */
  nodes: string[];
}

export type UiVerb = keyof UiVerbs;
export type UiRequest = { [V in UiVerb]: { verb: V; timeoutMs?: number } & UiVerbs[V]['req'] }[UiVerb];
export type UiResult<V extends UiVerb> = UiVerbs[V]['res'];

/** Everything the suite sends to the launcher, one JSON object per POST. */
export type BridgeMessage =
  | { type: 'ui'; request: UiRequest }
  | { type: 'service'; request: ServiceRequest }
  | { type: 'log'; lines: string[] }
  | { type: 'done'; passed: number; failed: number; pending: number };

export type BridgeReply = { ok: true; result: unknown } | { ok: false; error: string };

/** The launcher's check of an incoming body: only the shape, the action code checks the rest. */
export function isBridgeMessage(value: unknown): value is BridgeMessage {
  if (typeof value !== 'object' || value === null) return false;
  const m = value as Record<string, unknown>;
  switch (m.type) {
    case 'ui':
      return typeof m.request === 'object' && m.request !== null && typeof (m.request as { verb?: unknown }).verb === 'string';
    case 'service':
      return isServiceRequest(m.request);
    case 'log':
      return Array.isArray(m.lines) && m.lines.every((l) => typeof l === 'string');
    case 'done':
      return [m.passed, m.failed, m.pending].every((n) => Number.isInteger(n));
    default:
      return false;
  }
}

/** Screenshot names become file names: keep them to a safe alphabet. */
export function isScreenshotName(name: string): boolean {
  return /^[a-z0-9][a-z0-9-]{0,60}$/.test(name);
}
