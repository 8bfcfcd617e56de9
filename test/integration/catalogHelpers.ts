// Helpers shared by the Catalog view's integration tests: rows without the placeholders, the service a
// test points the extension at (reference service, optionally behind a front server that 404s
// language forms, ignores ?page or fails on purpose), and loopback ports nothing answers on.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startFrontServer, type FrontOptions, type FrontServer } from '../unit/helpers/frontServer';
import { api, startService, useSettings, waitFor, type RunningService } from './helpers';
import type { TreeRow } from '../../src/extension/testApi';

export const ITEM_KINDS = new Set(['refactorBrowser.code', 'refactorBrowser.refactor']);

/** The code and refactoring rows of a list, placeholders left out. */
export function items(rows: TreeRow[]): TreeRow[] {
  return rows.filter((r) => ITEM_KINDS.has(r.contextValue));
}

export function hasLoadMore(rows: TreeRow[]): boolean {
  return rows.some((r) => r.contextValue === 'refactorBrowser.loadMore');
}

/** A reference service (sample catalog unless given) behind a front server, set as refactorBrowser.baseUrl. */
export async function useFrontedService(options: FrontOptions, catalog?: unknown): Promise<{ service: RunningService; front: FrontServer; close(): Promise<void> }> {
  const service = await startService(catalog);
  const front = await startFrontServer(service.url, options);
  await useSettings({ baseUrl: front.url });
  return { service, front, close: async () => { await front.close(); await service.close(); } };
}

/** A loopback port that was free a moment ago: connections to it are refused. */
export async function refusedUrl(): Promise<string> {
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return `http://127.0.0.1:${port}/`;
}

/** Rows under `path` once `ready` accepts them (a click's refresh lands a moment later); bounded. */
export async function rowsWhen(path: string[], ready: (rows: TreeRow[]) => boolean, what: string, timeoutMs = 10_000): Promise<TreeRow[]> {
  const browser = await api();
  return waitFor(async () => {
    const rows = await browser.treeRows(path);
    return ready(rows) ? rows : undefined;
  }, what, timeoutMs);
}
