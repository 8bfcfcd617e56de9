// The code view's webview script: a `ready` handshake, then it renders what the extension sends
// (state.ts keeps what is shown, render.ts builds it). Every message in is checked by the shared
// protocol; what the page sends back is the buttons' (render.ts) and the switch's (state.ts).
import { parseToWebview } from '../protocol/codeView';
import { CodeView, type VsCodeApi } from './state';

declare function acquireVsCodeApi(): VsCodeApi;

function main(): void {
  const vscode = acquireVsCodeApi();
  const root = document.getElementById('root');
  if (!root) return;
  const view = new CodeView(vscode, root);
  window.addEventListener('message', (event: MessageEvent<unknown>) => {
    const message = parseToWebview(event.data);
    if (!message) return; // not ours, or malformed: nothing is rendered from it
    switch (message.type) {
      case 'show': view.show(message.code, message.order, message.starred, message.note, message.revealRefactorId, message.me); break;
      case 'stars': view.markStars(message.starred); break;
      case 'loading': view.loading(message.codeId); break;
      case 'error': view.error(message.message, message.codeId); break;
      case 'reveal': view.reveal(message.refactorId); break;
      case 'order': view.arrange(message.order); break;
    }
  });
  vscode.postMessage({ type: 'ready' });
}

main();
