// The loopback servers the integration tests use, the same way in both extension hosts: the reference
// service over a catalog, a front server before it, the hostile server (test/services/protocol.ts).
// Each is asked for as a message: the web worker host sends it over the bridge to the launcher, which
// can listen on a socket; the Node host hands it to a registry in its own process (so its tests need
// no launcher, e.g. under @vscode/test-electron). The suite's entry point says which (useServices).
import { RefactorClient } from '../../src/client/client';
import type { FrontRecord, FrontWireOptions, ServiceRequest, ServiceResult, ServiceVerb } from '../services/protocol';

export type ServiceTransport = (request: ServiceRequest) => Promise<unknown>;
let transport: ServiceTransport | undefined;

/** Called once by the suite's entry point, before any test. */
export function useServices(send: ServiceTransport): void {
  transport = send;
}

async function ask<V extends ServiceVerb>(request: ServiceRequest & { verb: V }): Promise<ServiceResult<V>> {
  if (!transport) throw new Error('no test services: the suite\'s entry point did not call useServices');
  return (await transport(request)) as ServiceResult<V>;
}

export interface RunningService {
  /** `http://127.0.0.1:PORT`, without a trailing slash. */
  readonly url: string;
  readonly port: number;
  /** Stops listening and ends every connection. */
  close(): Promise<void>;
}

function handle(id: number, url: string): RunningService {
  let closing: Promise<void> | undefined;
  return { url, port: Number(new URL(url).port), close: () => (closing ??= ask({ verb: 'stop', id }).then(() => undefined)) };
}

/**
 * The reference service on loopback serving `catalog` (catalog JSON) or the sample; where `on` refused
 * connections until now, if given (it is then the service's: stop this one, not `on`).
 */
export async function startService(catalog?: unknown, options: { on?: RefusingPort } = {}): Promise<RunningService> {
  const { id, url } = await ask({ verb: 'startService', catalog, on: options.on?.id });
  return handle(id, url);
}

/** The writable reference service, empty, and a way to add the people who may write to it. */
export interface WritableTestService extends RunningService {
  /** Adds a person and returns their token. */
  addPerson(name: string): Promise<string>;
  /** Revokes the token of the person of that name: the service refuses it from then on. */
  revoke(name: string): Promise<void>;
  /** Runs `use` with a client of the person `token` belongs to, as another client of the service would. */
  as<T>(token: string, use: (client: RefactorClient) => Promise<T>): Promise<T>;
}

export async function startWritable(): Promise<WritableTestService> {
  const { id, url } = await ask({ verb: 'startWritable' });
  return {
    ...handle(id, url),
    addPerson: async (name) => (await ask({ verb: 'addPerson', id, name })).token,
    revoke: async (name) => {
      await ask({ verb: 'revoke', id, name });
    },
    async as(token, use) {
      const client = new RefactorClient({ baseUrl: url, token, timeoutMs: 10_000 });
      try {
        return await use(client);
      } finally {
        await client.close();
      }
    },
  };
}

/** A loopback URL whose connections are refused; its port is held, so no other process takes it meanwhile. */
export interface RefusingPort extends RunningService {
  readonly id: number;
}

export async function refusingPort(): Promise<RefusingPort> {
  const { id, url } = await ask({ verb: 'refusing' });
  return { ...handle(id, url), id };
}

/** A front server (test/helpers/frontServer.ts), what a test can see of it and do with it. */
export interface FrontService extends RunningService {
  /** Every path asked for, in order (a browser's CORS preflights left out). */
  paths(): Promise<string[]>;
  /** Every request with its method, Origin and User-Agent. */
  requests(): Promise<FrontRecord[]>;
  /** Answers 500 to exactly these paths (query included) from now on; [] heals them. */
  fail(paths: string[]): Promise<void>;
  /** Holds every answer until release(). */
  hold(): Promise<void>;
  release(): Promise<void>;
}

async function requestsOf(id: number): Promise<FrontRecord[]> {
  return (await ask({ verb: 'frontRequests', id })).requests;
}

export async function startFront(upstream: string, options: FrontWireOptions = {}): Promise<FrontService> {
  const { id, url } = await ask({ verb: 'startFront', upstream, options });
  return {
    ...handle(id, url),
    paths: async () => (await requestsOf(id)).map((r) => r.path),
    requests: () => requestsOf(id),
    async fail(paths) {
      await ask({ verb: 'frontFail', id, paths });
    },
    async hold() {
      await ask({ verb: 'frontHold', id, hold: true });
    },
    async release() {
      await ask({ verb: 'frontHold', id, hold: false });
    },
  };
}

/** The hostile server: `${url}/<case>` as a base URL gets that case (test/hostile/cases.ts). */
export async function startHostile(): Promise<RunningService> {
  const { id, url } = await ask({ verb: 'startHostile' });
  return handle(id, url);
}

/** A loopback URL whose connections are refused, held (refusingPort) until the test run ends. */
export async function refusedUrl(): Promise<string> {
  return `${(await refusingPort()).url}/`;
}
