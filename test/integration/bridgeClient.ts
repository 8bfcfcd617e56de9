// The suite's side of the launcher bridge (protocol: test/ui/protocol.ts): what the launcher set for
// this run, read from the user settings, and one JSON POST per message through the host's global
// fetch, which both extension hosts have (the web worker's is the browser's, hence CORS on the bridge).
import * as vscode from 'vscode';
import { RUN_SETTINGS, type BridgeMessage, type BridgeReply, type Host, type RunSettings } from '../ui/protocol';

/** What the launcher set for this run; nothing under a launcher that sets none (@vscode/test-electron). */
export function runSettings(): Partial<RunSettings> {
  const section = vscode.workspace.getConfiguration(RUN_SETTINGS);
  return {
    bridge: section.get<string>('bridge') || undefined,
    host: section.get<Host>('host') || undefined,
    grep: section.get<string>('grep') || undefined,
    locale: section.get<string>('locale') || undefined,
  };
}

/** The launcher's bridge URL, or undefined when no launcher offers one. */
export function bridgeUrl(): string | undefined {
  return runSettings().bridge;
}

/** The extension host the launcher meant this run for (a launcher that says nothing runs the Node one). */
export function expectedHost(): Host {
  return runSettings().host ?? 'node';
}

/** Sends one message; resolves with the launcher's result, rejects with its error. */
export async function postToBridge(url: string, message: BridgeMessage, timeoutMs = 60_000): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(message),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (err) {
    if (err instanceof Error && err.name === 'TimeoutError') throw new Error(`bridge did not answer within ${timeoutMs} ms`, { cause: err });
    throw err;
  }
  let reply: BridgeReply;
  try {
    reply = (await res.json()) as BridgeReply;
  } catch {
    throw new Error(`bridge answered HTTP ${res.status} without a reply`);
  }
  if (reply.ok) return reply.result;
  throw new Error(reply.error);
}
