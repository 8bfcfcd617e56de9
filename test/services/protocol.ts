// The loopback servers an integration test may ask for, as messages: the reference service over a
// catalog or writable (test/helpers/writableService.ts), a front server before it (test/helpers/frontServer.ts) and the hostile server
// (test/hostile/server.ts). Why messages: the browser's web worker extension host cannot listen on a
// socket, so there the launcher starts them on request (over the bridge, test/ui/protocol.ts); the Node
// extension host hands the same messages to the same registry in its own process (registry.ts). Every
// server listens on 127.0.0.1 and is known by the id it was started with until `stop`.

/** What a test may ask of a front server (its `tls` option is for Node-only tests, which start one directly). */
export interface FrontWireOptions {
  /** 404 for the language forms of popular codes and recent refactorings. */
  noLanguageForms?: boolean;
  /** Drops the query, so every page is page 1. */
  ignorePage?: boolean;
  /** No Access-Control-* header on any answer: a browser may not read them (a service that does not allow CORS). */
  noCors?: boolean;
  /** Answers every request (a browser's preflights left out) with a 302 to this loopback http origin, same path. */
  redirectTo?: string;
}

/** One request a front server saw (a browser's CORS preflights left out). */
export interface FrontRecord {
  method: string;
  /** Path and query as asked. */
  path: string;
  /** The request's Origin header: browsers send it, Node's fetch does not. */
  origin: string | null;
  userAgent: string | null;
  /** The request's Authorization header: whether, and which, token reached this server. */
  authorization: string | null;
}

export interface Started {
  id: number;
  /** The reference and hostile servers' without a trailing slash, a front server's with one. */
  url: string;
}

/** No fields. */
export type Empty = Record<never, never>;

/** Each verb's request fields and result. */
export interface ServiceVerbs {
  /**
   * The reference service over `catalog` (catalog JSON, as the service's --catalog file holds; default
   * the sample), on a free port, or where `on` (a `refusing` id) refused connections until now.
   */
  startService: { req: { catalog?: unknown; on?: number }; res: Started };
  /** The writable reference service (the SQL store over an in-memory PGlite: seconds to open), with no codes and no people. */
  startWritable: { req: Empty; res: Started };
  /** Adds a person who may write to the writable service `id`; `token` is theirs. */
  addPerson: { req: { id: number; name: string }; res: { token: string } };
  /** Revokes the token of the person of that name on the writable service `id`, as `users revoke` does. */
  revoke: { req: { id: number; name: string }; res: Empty };
  /** A loopback URL whose port refuses connections, held so that no other process takes it (until `stop`). */
  refusing: { req: Empty; res: Started };
  /** A front server forwarding to `upstream`, a loopback http URL. */
  startFront: { req: { upstream: string; options: FrontWireOptions }; res: Started };
  /** The hostile server: a base URL `${url}/<case>` gets that case (test/hostile/cases.ts). */
  startHostile: { req: Empty; res: Started };
  /** What the front server `id` has been asked, oldest first. */
  frontRequests: { req: { id: number }; res: { requests: FrontRecord[] } };
  /** From now on the front server answers 500 to exactly these paths (query included). */
  frontFail: { req: { id: number; paths: string[] }; res: Empty };
  /** Holds the front server's answers until `hold: false` releases them. */
  frontHold: { req: { id: number; hold: boolean }; res: Empty };
  /** Stops a server started here (ending its connections); stopping one already stopped is fine. */
  stop: { req: { id: number }; res: Empty };
}

export type ServiceVerb = keyof ServiceVerbs;
export type ServiceRequest = { [V in ServiceVerb]: { verb: V } & ServiceVerbs[V]['req'] }[ServiceVerb];
export type ServiceResult<V extends ServiceVerb> = ServiceVerbs[V]['res'];

/** The shape check of an incoming request: the verb and its fields' types (the registry checks values). */
export function isServiceRequest(value: unknown): value is ServiceRequest {
  if (typeof value !== 'object' || value === null) return false;
  const r = value as Record<string, unknown>;
  const id = Number.isInteger(r.id);
  switch (r.verb) {
    case 'startService':
      return r.on === undefined || Number.isInteger(r.on);
    case 'startFront':
      return typeof r.upstream === 'string' && typeof r.options === 'object' && r.options !== null;
    case 'startHostile':
    case 'startWritable':
    case 'refusing':
      return true;
    case 'frontRequests':
    case 'stop':
      return id;
    case 'addPerson':
    case 'revoke':
      return id && typeof r.name === 'string';
    case 'frontFail':
      return id && Array.isArray(r.paths) && r.paths.every((p) => typeof p === 'string');
    case 'frontHold':
      return id && typeof r.hold === 'boolean';
    default:
      return false;
  }
}
