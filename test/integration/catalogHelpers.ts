// Helpers shared by the Catalog view's integration tests: rows without the placeholders, the service a
// test points the extension at (reference service, optionally behind a front server that 404s
// language forms, ignores ?page, fails on purpose or sends no CORS headers). No Node module: the
// tests in shared/ use them in the web worker extension host too.
import type { FrontWireOptions } from '../services/protocol';
import { api, useSettings, waitFor } from './helpers';
import { startFront, startService, type FrontService, type RunningService } from './services';
import type { TreeRow } from '../../src/extension/testApi';

export const ITEM_KINDS = new Set(['refactorBrowser.code', 'refactorBrowser.refactor', 'refactorBrowser.code.starred', 'refactorBrowser.refactor.starred']);

/** The code and refactoring rows of a list, placeholders left out. */
export function items(rows: TreeRow[]): TreeRow[] {
  return rows.filter((r) => ITEM_KINDS.has(r.contextValue));
}

export function hasLoadMore(rows: TreeRow[]): boolean {
  return rows.some((r) => r.contextValue === 'refactorBrowser.loadMore');
}

/** A reference service (sample catalog unless given) behind a front server, set as refactorBrowser.baseUrl. */
export async function useFrontedService(options: FrontWireOptions, catalog?: unknown): Promise<{ service: RunningService; front: FrontService; close(): Promise<void> }> {
  const service = await startService(catalog);
  const front = await startFront(service.url, options);
  await useSettings({ baseUrl: front.url });
  return { service, front, close: async () => { await front.close(); await service.close(); } };
}

/** Rows under `path` once `ready` accepts them (a click's refresh lands a moment later); bounded. */
export async function rowsWhen(path: string[], ready: (rows: TreeRow[]) => boolean, what: string, timeoutMs = 10_000): Promise<TreeRow[]> {
  const browser = await api();
  return waitFor(async () => {
    const rows = await browser.treeRows(path);
    return ready(rows) ? rows : undefined;
  }, what, timeoutMs);
}
