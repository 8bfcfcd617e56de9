// The write API of a writable store: who is asking (a bearer token), how often they may write, the
// body (its type, its size before it is read whole, its XML), the validations, and the store's
// answer, in the API's REST and XML style (201 with Location, 204, 422 listing every reason). A
// refused write reaches the store only when the store itself must decide (a missing code, another
// person's row, a second rating), and the store then stores nothing. No Node module here.

import { error, personal, type Answer } from '../answers';
import { pagePath } from '../render/htmlRender';
import type { Format, Route, ServiceRequest } from '../routes';
import { tokenHash } from '../tokens';
import { bearerToken, MAX_BODY_BYTES, TOKEN_REFUSED, type ServiceReason } from '../../core/writeContract';
import type { CatalogReader, CatalogWriter, WriteResult } from '../store';
import { checkCodePageRoom, checkNewCode, checkNewRefactor, checkRating, readSubmission, SubmissionError, TEXT_BOUNDS, type Checked } from './body';
import { renderCodeXml, renderRefactorXml, renderUserXml } from '../render/xmlRender';

export interface ContributionLimits {
  /** Writes one person may make in any minute; past it, 429 with Retry-After. */
  writesPerMinute: number;
  /** The largest body read, in bytes; a larger one is 413 before it is read whole. */
  maxBodyBytes: number;
  /**
   * Requests of the write API refused for their token (none, unknown, revoked) that one client
   * address may make in any minute; past it, 429 with Retry-After before a token is looked up,
   * unless this process accepted that token before (so guessing from an address never locks out
   * a person writing from it).
   */
  refusedPerMinute: number;
}

export const DEFAULT_CONTRIBUTION_LIMITS: ContributionLimits = { writesPerMinute: 30, maxBodyBytes: MAX_BODY_BYTES, refusedPerMinute: 60 };

/** Longer than any token `users add` makes; a longer header is not looked up. */
const MAX_TOKEN_LENGTH = 256;
const CHALLENGE = { 'WWW-Authenticate': 'Bearer realm="refactor-browser"' };
const XML_TYPES = new Set(['application/xml', 'text/xml']);
const MINUTE_MS = 60_000;
/** Addresses counted at once: memory stays bounded whatever addresses requests claim. */
export const MAX_COUNTED = 100_000;
/** Token hashes remembered as accepted: far more people than write to one instance at once. */
const MAX_KNOWN_GOOD = 10_000;

export class Contributions {
  private readonly limits: ContributionLimits;
  /**
   * Within the last minute (times, oldest first): each client address's requests refused for want of
   * an accepted token. (A person's writes are counted by the storage, which every instance shares.)
   */
  private readonly recent = new Map<string, number[]>();
  /** Hashes of tokens accepted lately, least recently accepted first: they pass an address's bound. */
  private readonly knownGood = new Set<string>();

  constructor(
    private readonly reader: CatalogReader,
    private readonly writer: CatalogWriter,
    limits: Partial<ContributionLimits> = {},
    private readonly now: () => number = Date.now,
  ) {
    this.limits = { ...DEFAULT_CONTRIBUTION_LIMITS, ...limits };
  }

  /** `route` is a write route, or the account; its method is one the route takes. */
  async answer(route: Route, request: ServiceRequest, format: Format): Promise<Answer> {
    const hash = await tokenHashOf(request.headers.authorization);
    // An address that keeps sending tokens that are not accepted is stopped before they are looked
    // up; a token accepted before is looked up whatever its address did.
    const address = request.client === undefined ? undefined : `address ${request.client}`;
    const refusedWait = address === undefined || (hash !== undefined && this.knownGood.has(hash)) ? undefined : this.wait(address, this.limits.refusedPerMinute);
    if (refusedWait !== undefined) {
      return this.tooMany(refusedWait, `more than ${this.limits.refusedPerMinute} requests without an accepted token in a minute from this address`, format);
    }
    // The account shows the person as they are now; a write needs only who they are.
    const person = hash === undefined ? undefined
      : route.kind === 'account' ? await this.writer.personByTokenHash(hash)
        : await this.writer.authorByTokenHash(hash).then((id) => (id === undefined ? undefined : { id }));
    if (!person) {
      const reason = request.headers.authorization === undefined
        ? 'sign in first: send Authorization: Bearer TOKEN with a token from the service\'s owner'
        : TOKEN_REFUSED;
      if (address !== undefined) this.count(address);
      if (hash !== undefined) this.knownGood.delete(hash);
      return error(401, reason, format, true, CHALLENGE);
    }
    this.remember(hash!);
    if (route.kind === 'account') {
      return format === 'xml' && 'name' in person ? personal(200, 'xml', renderUserXml(person)) : error(404, 'no such resource', format, true);
    }
    const wait = await this.writer.takeWrite(person.id, new Date(this.now()), this.limits.writesPerMinute);
    if (wait !== undefined) return this.tooMany(wait, `more than ${this.limits.writesPerMinute} writes in a minute`, format);
    const base = baseOf(request);
    switch (route.kind) {
      case 'newCode': {
        const checked = await this.submission(request, 'code', checkNewCode);
        if (!checked.ok) return checked.answer;
        const code = await this.writer.addCode(person.id, checked.value, new Date(this.now()));
        return personal(201, 'xml', renderCodeXml(code), { Location: `${base}${pagePath.code(code)}` });
      }
      case 'newRefactor': {
        const code = await this.reader.code(route.codeId);
        if (!code) return noCode(route.codeId, format);
        const checked = await this.submission(request, 'refactor', checkNewRefactor);
        if (!checked.ok) return checked.answer;
        const room = checkCodePageRoom(code, checked.value);
        if (!room.ok) return error(422, room.reasons, format, true);
        return settled(await this.writer.addRefactor(person.id, route.codeId, checked.value, new Date(this.now())), format, (r) =>
          personal(201, 'xml', renderRefactorXml(r), { Location: `${base}${pagePath.refactor(r)}` }),
        );
      }
      case 'rate': {
        const checked = await this.submission(request, 'rating', checkRating);
        if (!checked.ok) return checked.answer;
        return settled(await this.writer.rate(person.id, route.codeId, route.id, checked.value), format, (r) => personal(200, 'xml', renderRefactorXml(r)));
      }
      case 'code':
        return settled(await this.writer.deleteCode(person.id, route.id), format, () => personal(204, format, ''));
      case 'refactor':
        return settled(await this.writer.deleteRefactor(person.id, route.codeId, route.id), format, () => personal(204, format, ''));
      default:
        return error(404, 'no such resource', format, true);
    }
  }

  /**
   * Milliseconds until `key` (a client address) may go on, or undefined while it was
   * counted fewer than `bound` times in the last minute.
   */
  private wait(key: string, bound: number): number | undefined {
    const now = this.now();
    const times = this.recent.get(key);
    if (!times) return undefined;
    // Oldest first: what fell out of the last minute is at the front.
    while (times.length > 0 && times[0] <= now - MINUTE_MS) times.shift();
    if (times.length === 0) {
      this.recent.delete(key);
      return undefined;
    }
    return times.length >= bound ? Math.max(1000, times[0] + MINUTE_MS - now) : undefined;
  }

  private count(key: string): void {
    const times = this.recent.get(key);
    if (times) return void times.push(this.now());
    // Addresses a client names through a trusted proxy are many: the oldest counted key goes first.
    if (this.recent.size >= MAX_COUNTED) this.recent.delete(this.recent.keys().next().value!);
    this.recent.set(key, [this.now()]);
  }

  private remember(hash: string): void {
    this.knownGood.delete(hash);
    if (this.knownGood.size >= MAX_KNOWN_GOOD) this.knownGood.delete(this.knownGood.values().next().value!);
    this.knownGood.add(hash);
  }

  private tooMany(wait: number, what: string, format: Format): Answer {
    const seconds = Math.ceil(wait / 1000);
    return error(429, `${what}: try again in ${seconds} s`, format, true, { 'Retry-After': String(seconds) });
  }

  /** The body's fields, checked; or the answer that refuses it (415, 413, 400, 422). */
  private async submission<T>(
    request: ServiceRequest,
    root: string,
    check: (fields: Map<string, string>) => Checked<T>,
  ): Promise<{ ok: true; value: T } | { ok: false; answer: Answer }> {
    const refuse = (status: 400 | 413 | 415 | 422, reasons: string | readonly ServiceReason[]) => ({ ok: false as const, answer: error(status, reasons, 'xml', true) });
    const type = (request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    if (!XML_TYPES.has(type)) return refuse(415, 'send the body as XML, with Content-Type: application/xml');
    const tooLarge = `the body is larger than ${this.limits.maxBodyBytes / 1024 / 1024} MiB (${TEXT_BOUNDS})`;
    if (Number(request.headers['content-length']) > this.limits.maxBodyBytes) return refuse(413, tooLarge);
    const bytes = request.body ? await request.body(this.limits.maxBodyBytes) : new Uint8Array(0);
    if (bytes === 'too-large') return refuse(413, tooLarge);
    let fields: Map<string, string>;
    try {
      fields = readSubmission(new TextDecoder('utf-8', { fatal: true }).decode(bytes), root);
    } catch (err) {
      if (err instanceof SubmissionError) return refuse(400, err.message);
      if (err instanceof TypeError) return refuse(400, 'the body is not UTF-8');
      throw err;
    }
    const checked = check(fields);
    return checked.ok ? checked : refuse(422, checked.reasons);
  }
}

/** The hash of the bearer token sent, if a token was sent in a form one could be. */
async function tokenHashOf(authorization: string | undefined): Promise<string | undefined> {
  if (authorization === undefined || authorization.length > MAX_TOKEN_LENGTH + 16) return undefined;
  const token = bearerToken(authorization);
  if (token === undefined || token.length > MAX_TOKEN_LENGTH) return undefined;
  return tokenHash(token);
}

function settled<T>(result: WriteResult<T>, format: Format, done: (value: T) => Answer): Answer {
  switch (result.refused) {
    case undefined:
      return done(result.value);
    case 'not-found':
      return error(404, result.message, format, true);
    case 'forbidden':
      return error(403, result.message, format, true);
    case 'invalid':
      return error(422, result.message, format, true);
  }
}

function noCode(id: number, format: Format): Answer {
  return error(404, `no code with id ${id}`, format, true);
}

/**
 * Where the service is, as this request reached it: a proxy's absolute-form target, or the Host
 * header (https when a proxy in front says so). Location names the new resource there; with
 * neither, it is a path. Only this request's own answer carries it, so a client can mislead no one
 * but itself.
 */
function baseOf(request: ServiceRequest): string {
  const absolute = /^https?:\/\/[^/?#]+/i.exec(request.url);
  if (absolute) return absolute[0];
  const host = request.headers.host;
  const scheme = request.headers['x-forwarded-proto']?.split(',')[0].trim().toLowerCase() === 'https' ? 'https' : 'http';
  return host && /^[A-Za-z0-9.:[\]-]+$/.test(host) ? `${scheme}://${host}` : '';
}
