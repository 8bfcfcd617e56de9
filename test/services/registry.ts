// The Node side of the test services (protocol.ts): starts the servers a test asks for on 127.0.0.1,
// knows each by its id, and stops them one by one or all at once, bounded in time. The launcher's
// bridge holds one for the browser's web worker extension host; the Node extension host holds its own.
import * as net from 'node:net';
import { startHostileServer } from '../hostile/server';
import { parseDataset } from '../../src/server/catalog/dataset';
import { startServer } from '../../src/server/http/server';
import { startFrontServer, type FrontServer } from '../helpers/frontServer';
import { holdPort, type HeldPort } from '../helpers/testServer';
import { startWritableService, type WritableService } from '../helpers/writableService';
import type { ServiceRequest, Started } from './protocol';

interface Running {
  close(): Promise<void>;
  front?: FrontServer;
  held?: HeldPort;
  writable?: WritableService;
}

/** A TCP relay on `held` to a loopback `port`; close() ends its connections too. */
async function relayTo(held: HeldPort, port: number): Promise<{ close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const relay = net.createServer((client) => {
    const upstream = net.connect(port, '127.0.0.1');
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => { client.destroy(); upstream.destroy(); });
    }
    client.pipe(upstream).pipe(client);
  });
  await held.listenWith(relay);
  return {
    close: () => new Promise<void>((resolve) => {
      relay.close(() => resolve());
      for (const s of sockets) s.destroy();
    }),
  };
}

/** How long stopping everything may take before it is given up (a server whose close never calls back). */
const STOP_ALL_MS = 5000;

export class TestServices {
  private nextId = 1;
  private readonly running = new Map<number, Running>();

  /** Does one request; resolves with the verb's result or rejects with a readable reason. */
  async handle(request: ServiceRequest): Promise<unknown> {
    switch (request.verb) {
      case 'startService': {
        const held = request.on === undefined ? undefined : this.running.get(request.on)?.held;
        if (request.on !== undefined && !held) throw new Error(`no refusing port ${request.on}`);
        const catalog = request.catalog === undefined ? undefined : parseDataset(request.catalog, 'test catalog');
        const server = await startServer({ host: '127.0.0.1', port: 0, catalog });
        if (!held) return this.add(server.url, { close: () => server.close() });
        // Where connections were refused: a relay listens on the held port itself, so it was never free.
        this.running.delete(request.on as number);
        const relay = await relayTo(held, server.port);
        return this.add(`http://127.0.0.1:${held.port}`, { close: async () => { await relay.close(); await server.close(); } });
      }
      case 'refusing': {
        const held = holdPort();
        return this.add(`http://127.0.0.1:${held.port}`, { close: async () => held.close(), held });
      }
      case 'startFront': {
        const upstream = new URL(request.upstream);
        if (upstream.protocol !== 'http:' || upstream.hostname !== '127.0.0.1') throw new Error(`a front server forwards to loopback http only, not ${request.upstream}`);
        const { noLanguageForms, ignorePage, noCors, redirectTo } = request.options;
        if (redirectTo !== undefined && !/^http:\/\/127\.0\.0\.1:\d+\/?$/.test(redirectTo)) throw new Error(`a front server redirects to a loopback http origin only, not ${redirectTo}`);
        const front = await startFrontServer(upstream.href, { noLanguageForms, ignorePage, noCors, redirectTo });
        return this.add(front.url, { close: () => front.close(), front });
      }
      case 'startHostile': {
        const hostile = await startHostileServer();
        return this.add(hostile.url, { close: () => hostile.close() });
      }
      case 'startWritable': {
        const writable = await startWritableService();
        return this.add(writable.url, { close: () => writable.close(), writable });
      }
      case 'addPerson': {
        const writable = this.running.get(request.id)?.writable;
        if (!writable) throw new Error(`no writable service ${request.id}`);
        return { token: await writable.addPerson(request.name) };
      }
      case 'revoke': {
        const writable = this.running.get(request.id)?.writable;
        if (!writable) throw new Error(`no writable service ${request.id}`);
        const revoked = await writable.store.revoke(request.name);
        if (revoked.refused) throw new Error(revoked.message);
        return {};
      }
      case 'frontRequests':
        return { requests: [...this.front(request.id).requests] };
      case 'frontFail': {
        const { failing } = this.front(request.id);
        failing.clear();
        for (const p of request.paths) failing.add(p);
        return {};
      }
      case 'frontHold': {
        const front = this.front(request.id);
        if (request.hold) front.hold();
        else front.release();
        return {};
      }
      case 'stop': {
        const server = this.running.get(request.id);
        this.running.delete(request.id);
        await server?.close();
        return {};
      }
    }
  }

  /** Stops every server still running; gives up after a few seconds rather than hang the run. */
  async stopAll(): Promise<void> {
    const all = [...this.running.values()];
    this.running.clear();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled(all.map((s) => s.close())),
      new Promise((resolve) => (timer = setTimeout(resolve, STOP_ALL_MS))),
    ]);
    clearTimeout(timer);
  }

  private add(url: string, server: Running): Started {
    const id = this.nextId++;
    this.running.set(id, server);
    return { id, url };
  }

  private front(id: number): FrontServer {
    const front = this.running.get(id)?.front;
    if (!front) throw new Error(`no front server ${id}`);
    return front;
  }
}
