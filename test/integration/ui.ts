// UI actions on the workbench the suite runs in, done by the launcher with Playwright (see
// test/ui/protocol.ts for why and for the verbs). Under a launcher without a browser the UI tests skip.
import type { Context } from 'mocha';
import type { AxeViolation, DomInfo, FocusRing, ElementInfo, FrameInfo, Target, UiRequest, UiResult, UiVerb } from '../ui/protocol';
import { bridgeUrl, postToBridge } from './bridgeClient';

export class Ui {
  constructor(private readonly url: string) {}

  private async do<V extends UiVerb>(request: UiRequest & { verb: V }): Promise<UiResult<V>> {
    return (await postToBridge(this.url, { type: 'ui', request })) as UiResult<V>;
  }

  async click(target: Target, options: { button?: 'left' | 'right'; count?: number; modifiers?: Array<'Shift' | 'ControlOrMeta' | 'Alt'> } = {}): Promise<void> {
    await this.do({ verb: 'click', target, ...options });
  }
  async contextMenu(target: Target, item: string): Promise<void> {
    await this.do({ verb: 'contextMenu', target, item });
  }
  async press(keys: string): Promise<void> {
    await this.do({ verb: 'press', keys });
  }
  async type(text: string): Promise<void> {
    await this.do({ verb: 'type', text });
  }
  async query(target: Target, attributes: string[] = [], atLeast = 0): Promise<ElementInfo[]> {
    return (await this.do({ verb: 'query', target, attributes, atLeast })).elements;
  }
  async waitFor(target: Target, state: 'visible' | 'hidden' | 'attached' | 'detached' = 'visible', timeoutMs?: number): Promise<void> {
    await this.do({ verb: 'waitFor', target, state, timeoutMs });
  }
  async screenshot(name: string, target?: Target): Promise<string> {
    return (await this.do({ verb: 'screenshot', name, target })).path;
  }
  async webviewClick(target: Target, frameText?: string): Promise<void> {
    await this.do({ verb: 'webviewClick', target, frameText });
  }
  async webviewSelect(target: Target, value: string, frameText?: string): Promise<void> {
    await this.do({ verb: 'webviewSelect', target, value, frameText });
  }
  async webviewFrames(): Promise<FrameInfo[]> {
    return (await this.do({ verb: 'webviewFrames' })).frames;
  }
  async hover(target: Target): Promise<void> {
    await this.do({ verb: 'hover', target });
  }
  async dom(target: Target, options: { webview?: boolean; frameText?: string; maxText?: number } = {}): Promise<DomInfo[]> {
    return (await this.do({ verb: 'dom', target, ...options })).elements;
  }
  async focusRing(until: string, frameText?: string): Promise<FocusRing> {
    return this.do({ verb: 'focusRing', until, frameText });
  }
  async axe(frameText?: string): Promise<AxeViolation[]> {
    return (await this.do({ verb: 'axe', frameText })).violations;
  }
  async editorText(): Promise<string> {
    return (await this.do({ verb: 'editorText' })).text;
  }
}

/** The UI driver, or marks the calling test (or hook) as skipped when there is no browser to drive. */
export function uiOrSkip(context: Context): Ui {
  const url = bridgeUrl();
  if (!url) context.skip();
  return new Ui(url);
}
