// What a code view does with its webview's messages: each is checked by the shared protocol, and the
// actions it asks for are delegated to the commands (CodeViewActions), on the items the view shows.
import * as vscode from 'vscode';
import { titleOf } from '../../common/names';
import type { Section } from '../../../core/sections';
import { isHttpUrl } from '../../../core/httpUrl';
import { parseToExtension } from '../../../protocol/codeView';
import { sectionsOf } from '../../common/items';
import type { CodeViewPanel } from './state';

/** Handles a message from the webview of `view`; resolves once the action it asked for is done. */
export async function handleMessage(view: CodeViewPanel, raw: unknown): Promise<void> {
  const { owner } = view;
  const message = parseToExtension(raw);
  if (!message) {
    owner.logger.warn(`code view: ignored a malformed message from the webview of code #${view.codeId}`);
    return;
  }
  switch (message.type) {
    case 'ready':
      view.webviewReady();
      return;
    case 'retry':
      void view.load();
      return;
    case 'setOrder':
      view.orderShown(message.order); // the webview shows it already
      await owner.setOrder(message.order);
      return;
    case 'openExternal':
      // Checked by the protocol already; checked again where the URL leaves for the OS.
      if (isHttpUrl(message.url)) void vscode.env.openExternal(vscode.Uri.parse(message.url, true));
      return;
    case 'compareWithOriginal': {
      const code = view.code;
      const refactor = code?.refactors?.find((r) => r.id === message.refactorId);
      if (code && refactor) await owner.actions.compareWithOriginal({ kind: 'refactor', refactor }, code);
      return;
    }
    case 'insert':
    case 'copy': {
      const item = view.itemOf(message.target);
      if (!item) return;
      const index = message.target.section;
      let section: Section | undefined;
      if (index !== undefined) {
        const sections = sectionsOf(item);
        section = sections[index];
        if (!section) {
          // The webview splits the same text: only a stale or forged message names a section that is not there.
          owner.logger.warn(`code view: ignored ${message.type} of section ${index} of ${titleOf(item)}, which has ${sections.length}`);
          return;
        }
      }
      await (message.type === 'insert' ? owner.actions.insert(item, section) : owner.actions.copy(item, section));
      return;
    }
    case 'openDocument': {
      const item = view.itemOf(message.target);
      if (item) await owner.actions.openDocument(item);
      return;
    }
    case 'star': {
      const item = view.itemOf(message.target);
      if (item) await owner.actions.star(item, message.starred);
      // Said back even when nothing changed, so the button shows what is so.
      view.showStars();
      return;
    }
    case 'rate': {
      const item = view.itemOf({ kind: 'refactor', id: message.refactorId });
      if (item) await owner.actions.rate(item);
      return;
    }
    case 'delete': {
      const item = view.itemOf(message.target);
      if (item) await owner.actions.delete(item);
      return;
    }
    case 'refactor': {
      const code = view.code;
      if (code) await owner.actions.refactor({ kind: 'code', code });
      return;
    }
  }
}
