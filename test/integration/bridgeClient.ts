// The suite's side of the launcher bridge (protocol: test/ui/protocol.ts): one JSON POST per message
// to the loopback URL the launcher passes down in the environment.
import * as http from 'node:http';
import { BRIDGE_ENV, type BridgeMessage, type BridgeReply } from '../ui/protocol';

/** The launcher's bridge URL, or undefined when no launcher offers one (e.g. @vscode/test-electron). */
export function bridgeUrl(): string | undefined {
  return process.env[BRIDGE_ENV] || undefined;
}

/** Sends one message; resolves with the launcher's result, rejects with its error. */
export function postToBridge(url: string, message: BridgeMessage, timeoutMs = 60_000): Promise<unknown> {
  const body = JSON.stringify(message);
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }, timeout: timeoutMs },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          try {
            const reply = JSON.parse(Buffer.concat(chunks).toString('utf8')) as BridgeReply;
            if (reply.ok) resolve(reply.result);
            else reject(new Error(reply.error));
          } catch {
            reject(new Error(`bridge answered HTTP ${res.statusCode} without a reply`));
          }
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error(`bridge did not answer within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}
