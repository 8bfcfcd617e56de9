// The hostile server's cases, one per route: the first path segment picks it (`/never/codes/recent.xml`).
// Each is bounded: writes stop when the socket closes, at a byte count, or at a time limit.
//
//   never, stall-headers, drip               case 1: no answer, headers then nothing, 1 byte a second
//   status-<code>, fail-<n>-<code>           case 2: an error status (HTML or XML body); n failures then ok
//   status-429-seconds-<s>, -date-<s>        case 2: 429 with Retry-After in seconds or as an HTTP-date
//   html-login, text, json, empty            case 3: 200 with something that is not XML
//   truncated, two-roots, wrong-root, type-mismatch   case 4
//   huge-length, huge-chunked                case 5: 500 MiB, generated lazily
//   bomb, proto                              case 6
//   redirect-<n>, loop-a, to-http-<port>, to-file     case 7
//   reset, reset-mid-body                    case 8
//   bad-utf8, nul, long-line, many-lines, many-items  case 9
//   element-flood, attribute-flood           case 9: markup built to stall a parser
//   markup                                   case 10 (with raw terminal controls)
//   link-phrase, to-link                     case 10: link syntax in a reason phrase, in a redirect's target
//   to-credentials                           case 8: a redirect to a URL with a user name and password
//   snippet                                  case 11
//   ok                                       the sample catalog, for redirects to land on

import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import { type Dataset } from '../../src/server/catalog/dataset';
import { loadSampleDataset } from '../../src/server/catalog/sampleDataset';
import {
  entityBomb, LOGIN_PAGE, longLineCatalog, manyItemsCatalog, manyLinesCatalog, markupCatalog, markupFlood, render, resourceOf,
  snippetCatalog, withPrototypeKeys, withTerminalControls, type Resource,
} from './bodies';
import type { RequestRecord } from './server';

export interface Exchange {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  /** The API path after the case segment, query included, e.g. `/codes/recent.xml?page=2`. */
  readonly rest: string;
  readonly record: RequestRecord;
  /** The server's own origin, for absolute Locations. */
  readonly origin: string;
  /** How many requests this exact path has had, this one included. */
  countPath(path: string): number;
  /** A timer that ends with the response and with the server. */
  later(ms: number, fn: () => void): void;
}

type Handler = (x: Exchange) => void;

export const HUGE_BYTES = 500 * 1024 * 1024;
/** A lazy stream gives up after this long even if the peer keeps reading (it never should). */
const STREAM_TIME_LIMIT_MS = 30_000;
const DRIP_MAX_BYTES = 120;

// Catalogs are built on first use and kept: the big ones take a moment to validate.
const catalogs = new Map<string, Dataset>();
function catalog(name: string, build: () => Dataset): Dataset {
  let c = catalogs.get(name);
  if (!c) catalogs.set(name, (c = build()));
  return c;
}
const sample = () => catalog('sample', loadSampleDataset);

function resource(x: Exchange): Resource | undefined {
  const r = resourceOf(x.rest);
  if (!r) send(x, 404, 'text/plain', 'not an API path\n');
  return r;
}

function send(x: Exchange, status: number, type: string, body: string | Buffer, headers: Record<string, string> = {}): void {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  x.record.bytesWritten += bytes.length;
  x.res.writeHead(status, { 'content-type': type, 'content-length': String(bytes.length), ...headers }).end(bytes);
}

function sendXml(x: Exchange, body: string | Buffer): void {
  send(x, 200, 'application/xml; charset=utf-8', body);
}

/** The resource rendered from `cat` and passed through `change`, or a 404 for an unknown code. */
function xmlFrom(x: Exchange, cat: Dataset, change: (xml: string, r: Resource) => string = (s) => s): void {
  const r = resource(x);
  if (!r) return;
  const xml = render(cat, r);
  if (xml === undefined) send(x, 404, 'application/xml', '<?xml version="1.0" encoding="UTF-8"?>\n<errors><error>no such code</error></errors>\n');
  else sendXml(x, change(xml, r));
}

const ERROR_PAGE = (status: number) =>
  `<!DOCTYPE html>\n<html><head><title>${status} ${STATUS_CODES[status]}</title></head><body><h1>${STATUS_CODES[status]}</h1><hr>nginx</body></html>\n`;

function errorStatus(x: Exchange, status: number, headers: Record<string, string> = {}): void {
  // The service's own errors look like Rails'; a proxy's look like nginx's: both are seen in the wild.
  if (status === 404) send(x, 404, 'application/xml', '<?xml version="1.0" encoding="UTF-8"?>\n<errors><error>Not found</error></errors>\n', headers);
  else send(x, status, 'text/html', ERROR_PAGE(status), headers);
}

/**
 * Writes `total` bytes of an endless `<code>` element, 64 KiB at a time, only when the socket wants
 * more: nothing is allocated past one chunk, and it stops when the peer hangs up.
 */
function streamLazily(x: Exchange, total: number, declareLength: boolean): void {
  const head = Buffer.from('<?xml version="1.0" encoding="UTF-8"?>\n<codes type="array"><code><code>');
  const filler = Buffer.alloc(64 * 1024, 'a');
  const started = Date.now();
  let closed = false;
  x.res.once('close', () => (closed = true));
  x.res.writeHead(200, { 'content-type': 'application/xml', ...(declareLength ? { 'content-length': String(total) } : {}) });
  let sent = 0;
  const pump = () => {
    while (!closed && sent < total && Date.now() - started < STREAM_TIME_LIMIT_MS) {
      const chunk = sent === 0 ? head : filler.subarray(0, Math.min(filler.length, total - sent));
      sent += chunk.length;
      x.record.bytesWritten += chunk.length;
      if (!x.res.write(chunk)) {
        x.res.once('drain', pump);
        return;
      }
    }
    if (!closed) x.res.destroy(); // at the byte count or the time limit: the body never completes
  };
  pump();
}

/** The sample's XML, one byte a second, for at most DRIP_MAX_BYTES seconds. */
function drip(x: Exchange): void {
  const r = resource(x);
  if (!r) return;
  const body = Buffer.from(render(sample(), r) ?? '');
  x.res.writeHead(200, { 'content-type': 'application/xml', 'content-length': String(body.length) });
  let i = 0;
  const next = () => {
    if (i >= Math.min(body.length, DRIP_MAX_BYTES)) {
      x.res.destroy();
      return;
    }
    x.res.write(body.subarray(i, i + 1));
    x.record.bytesWritten++;
    i++;
    x.later(1000, next);
  };
  next();
}

function redirect(x: Exchange, location: string, status = 302): void {
  send(x, status, 'text/html', `<a href="${location}">moved</a>\n`, { location });
}

/** Inserts bytes 0xC3 0x28 (a lead byte without its continuation) into the first title. */
function badUtf8(xml: string): Buffer {
  const at = xml.indexOf('<title>') + '<title>'.length;
  return Buffer.concat([Buffer.from(xml.slice(0, at)), Buffer.from([0xc3, 0x28]), Buffer.from(xml.slice(at))]);
}

/** A notification link that would type into the terminal when clicked, if VS Code rendered it. */
export const COMMAND_LINK = '[Retry](command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22echo%20pwned%5Cn%22%7D)';

const FIXED: Record<string, Handler> = {
  ok: (x) => xmlFrom(x, sample()),
  never: () => undefined, // the socket stays open until the client or the server closes it
  'stall-headers': (x) => {
    x.res.writeHead(200, { 'content-type': 'application/xml', 'content-length': '4096' });
    x.res.flushHeaders();
  },
  drip,
  'html-login': (x) => send(x, 200, 'text/html; charset=utf-8', LOGIN_PAGE),
  text: (x) => send(x, 200, 'text/plain', 'Service temporarily unavailable. Please try again later.\n'),
  json: (x) => send(x, 200, 'application/json', '{"codes":[],"error":null}\n'),
  empty: (x) => send(x, 200, 'application/xml', ''),
  // Cut at a line end, as a dropped connection usually leaves it: between elements, several still open.
  truncated: (x) => xmlFrom(x, sample(), (xml) => xml.slice(0, xml.lastIndexOf('\n', Math.floor(xml.length * 0.6)) + 1)),
  'two-roots': (x) => xmlFrom(x, sample(), (xml) => xml + xml.slice(xml.indexOf('\n') + 1)),
  // The other list, as a misrouted proxy or a wrong endpoint would answer.
  'wrong-root': (x) => {
    const r = resource(x);
    if (r) sendXml(x, render(sample(), r.kind === 'refactors' ? { kind: 'codes' } : { kind: 'refactors' }) ?? '');
  },
  'type-mismatch': (x) => xmlFrom(x, sample(), (xml) => xml.replace(/<id type="integer">\d+<\/id>/, '<id type="integer">twenty</id>')),
  'huge-length': (x) => streamLazily(x, HUGE_BYTES, true),
  'huge-chunked': (x) => streamLazily(x, HUGE_BYTES, false),
  bomb: (x) => {
    const r = resource(x);
    if (r) sendXml(x, entityBomb(r.kind === 'refactors' ? 'refactors' : r.kind === 'codes' ? 'codes' : 'code'));
  },
  proto: (x) => xmlFrom(x, sample(), withPrototypeKeys),
  reset: (x) => x.req.socket.destroy(),
  'reset-mid-body': (x) => {
    x.res.writeHead(200, { 'content-type': 'application/xml', 'content-length': '100000' });
    x.res.write('<?xml version="1.0" encoding="UTF-8"?>\n<codes type="array">');
    x.later(50, () => x.req.socket.destroy());
  },
  'bad-utf8': (x) => {
    const r = resource(x);
    if (r) sendXml(x, badUtf8(render(sample(), r) ?? ''));
  },
  nul: (x) => xmlFrom(x, sample(), (xml) => xml.replace(/<code>(?!\n)/g, '<code>\u0000')),
  'long-line': (x) => xmlFrom(x, catalog('long-line', () => longLineCatalog())),
  'many-lines': (x) => xmlFrom(x, catalog('many-lines', () => manyLinesCatalog())),
  'many-items': (x) => xmlFrom(x, catalog('many-items', () => manyItemsCatalog())),
  'element-flood': (x) => flood(x, 'elements'),
  'attribute-flood': (x) => flood(x, 'attributes'),
  markup: (x) => xmlFrom(x, catalog('markup', markupCatalog), withTerminalControls),
  snippet: (x) => xmlFrom(x, catalog('snippet', snippetCatalog)),
  'loop-a': (x) => redirect(x, `/loop-b${x.rest}`),
  'loop-b': (x) => redirect(x, `${x.origin}/loop-a${x.rest}`, 301),
  'to-file': (x) => redirect(x, 'file:///etc/passwd'),
  'link-phrase': (x) => {
    x.res.writeHead(599, `Try again ${COMMAND_LINK}`, { 'content-length': '0' }).end();
  },
  // The API path under a segment that is a link: the service has nothing there, so a 404 names it.
  'to-link': (x) => redirect(x, `/${COMMAND_LINK}${x.rest}`),
  // Credentials in a form the URL parser reads as such, though no `://` follows the scheme.
  'to-credentials': (x) => redirect(x, `http:\\\\ana:s3cret@${x.origin.slice('http://'.length)}/ok${x.rest}`),
};

const floods = new Map<string, string>();
function flood(x: Exchange, what: 'elements' | 'attributes'): void {
  const r = resource(x);
  if (!r) return;
  const root = r.kind === 'refactors' ? 'refactors' : r.kind === 'codes' ? 'codes' : 'code';
  const key = `${root}/${what}`;
  let body = floods.get(key);
  if (body === undefined) floods.set(key, (body = markupFlood(root, what)));
  sendXml(x, body);
}

/** The handler for a case segment, fixed or with a number in its name; undefined if there is none. */
export function caseFor(name: string): Handler | undefined {
  if (Object.hasOwn(FIXED, name)) return FIXED[name];
  let m = /^status-(\d{3})$/.exec(name);
  if (m) {
    const status = Number(m[1]);
    return (x) => errorStatus(x, status);
  }
  m = /^status-429-(seconds|date)-(\d{1,4})$/.exec(name);
  if (m) {
    const [, form, n] = m;
    return (x) => {
      const value = form === 'seconds' ? n : new Date(Date.now() + Number(n) * 1000).toUTCString();
      errorStatus(x, 429, { 'retry-after': value });
    };
  }
  m = /^fail-(\d{1,2})-(\d{3})$/.exec(name);
  if (m) {
    const failures = Number(m[1]);
    const status = Number(m[2]);
    return (x) => (x.countPath(x.req.url ?? '') <= failures ? errorStatus(x, status) : xmlFrom(x, sample()));
  }
  m = /^redirect-(\d{1,2})$/.exec(name);
  if (m) {
    const left = Number(m[1]);
    return (x) => (left === 0 ? xmlFrom(x, sample()) : redirect(x, `/redirect-${left - 1}${x.rest}`, left % 2 ? 302 : 307));
  }
  m = /^to-http-(\d{1,5})$/.exec(name);
  if (m) {
    const port = m[1];
    return (x) => redirect(x, `http://127.0.0.1:${port}/ok${x.rest}`);
  }
  return undefined;
}
