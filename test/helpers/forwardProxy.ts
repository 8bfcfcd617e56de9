// A tiny forward proxy on loopback: absolute-form requests are forwarded, CONNECT is tunnelled, and
// `seen` records each request line and CONNECT target, which is what proves a request went through it.
import * as http from 'node:http';
import { connect as netConnect, type Socket } from 'node:net';
import { startServer, type TestServer } from './testServer';

/**
 * Forwards each absolute-form request to its target and tunnels CONNECT; `seen` keeps `METHOD url`
 * lines. `hosts` maps names nothing resolves to the addresses the proxy reaches them at, so that a
 * request for such a name can only have been answered through the proxy.
 */
export async function startForwardProxy(hosts: Readonly<Record<string, string>> = {}): Promise<TestServer & { seen: string[] }> {
  const resolve = (host: string): string => (Object.hasOwn(hosts, host) ? hosts[host] : host);
  const seen: string[] = [];
  const proxy = await startServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    let target: URL;
    try {
      target = new URL(req.url ?? '');
    } catch {
      res.writeHead(400);
      res.end();
      return;
    }
    target.hostname = resolve(target.hostname);
    const upstream = http.request(target, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => { res.writeHead(502); res.end(); });
    req.pipe(upstream);
  });
  const tunnels = new Set<Socket>();
  proxy.server.on('connect', (req: http.IncomingMessage, client: Socket, head: Buffer) => {
    seen.push(`CONNECT ${req.url}`);
    const target = new URL(`http://${req.url}`);
    const upstream = netConnect(Number(target.port), resolve(target.hostname), () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    tunnels.add(upstream);
    upstream.on('close', () => tunnels.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  const closeProxy = proxy.close.bind(proxy);
  return Object.assign(proxy, {
    seen,
    close: async () => {
      for (const t of tunnels) t.destroy();
      await closeProxy();
    },
  });
}
