// Shared by the reference service's tests: raw HTTP requests (any method, any path, byte-exact
// bodies), a plain fast-xml-parser parse, the fixture catalogs, and an oracle that derives the expected
// API objects from a catalog's raw JSON on its own, without the service's code.

import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import type { Code, Refactor, User } from '../../src/core/model';

export interface RawResponse {
  status: number;
  /** The reason phrase as sent. */
  statusText: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** The body decoded as UTF-8, throwing on invalid bytes. */
  text: string;
}

/** One request on its own connection; `path` is sent exactly as given (no normalisation). */
export function request(baseUrl: string, pathAndQuery: string, opts: { method?: string; headers?: http.OutgoingHttpHeaders; body?: string | Buffer } = {}): Promise<RawResponse> {
  const base = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: base.hostname, port: base.port, path: pathAndQuery, method: opts.method ?? 'GET', headers: opts.headers, agent: false, timeout: 5000 },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          try {
            resolve({ status: res.statusCode ?? 0, statusText: res.statusMessage ?? '', headers: res.headers, body, text: new TextDecoder('utf-8', { fatal: true }).decode(body) });
          } catch (e) {
            reject(e instanceof Error ? e : new Error(String(e)));
          }
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer to ${pathAndQuery} within 5 s`)));
    req.on('error', reject);
    req.end(opts.body);
  });
}

/** A plain parse, independent of the project's decoder: attributes kept, text untouched. */
export const plainParser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  trimValues: false,
  parseTagValue: false,
  parseAttributeValue: false,
  ignoreDeclaration: false,
  isArray: (_name, jPath) => ['codes.code', 'refactors.refactor', 'code.refactors.refactor'].includes(String(jPath)),
});

export type XmlNode = Record<string, unknown>;

export const fixturePath = (name: string): string => path.resolve(__dirname, '../../../test/fixtures/catalogs', name);

export function readFixture(name: string): CatalogJson {
  return JSON.parse(fs.readFileSync(fixturePath(name), 'utf8')) as CatalogJson;
}

export const samplePath = path.resolve(__dirname, '../../../src/server/catalog/sample-catalog.json');

// The catalog format, declared once (src/core/catalogFile.ts), under the names the tests use.
export type { CatalogFile as CatalogJson, CatalogFileCode as CodeJson, CatalogFileRefactor as RefactorJson, CatalogFileUser as UserJson } from '../../src/core/catalogFile';
import type { CatalogFile as CatalogJson, CatalogFileCode as CodeJson, CatalogFileRefactor as RefactorJson } from '../../src/core/catalogFile';
// A generated catalog of any size: src/server/catalog/generatedCatalog.ts generateCatalogJson, the
// one generator (the service's `--generate`, the benchmarks and the tests).

/** What a client should decode, derived from the raw JSON by the rules of the catalog format. */
export class Oracle {
  constructor(readonly json: CatalogJson) {}

  private text(t: string | string[]): string {
    return Array.isArray(t) ? t.join('\n') : t;
  }

  language(name: string): string {
    const canonical = ['Ruby', 'PHP', 'JavaScript', 'ActionScript', 'Java', 'C', 'C++', 'C#', 'VB.NET', 'Python', 'Perl', 'Lisp', 'Erlang', 'Haskell', 'Bash', 'Delphi'];
    return canonical.find((l) => l.toLowerCase() === name.toLowerCase()) ?? name;
  }

  user(id: number): User {
    const u = this.json.users.find((x) => x.id === id)!;
    return {
      id: u.id, name: u.name, identityUrl: u.identityUrl, rating: u.rating, website: u.website ?? '',
      refactorsCount: this.json.refactors.filter((r) => r.userId === id).length,
    };
  }

  permalink(c: CodeJson): string {
    return c.permalink ?? c.title.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().split(/[^a-z0-9]+/).filter(Boolean).join('-');
  }

  /** A code as a list item: every Code field with its tags (the reference service's own) and the nested user. */
  listCode(id: number): Code {
    const c = this.json.codes.find((x) => x.id === id)!;
    return {
      id: c.id, title: c.title, language: this.language(c.language), permalink: this.permalink(c), code: this.text(c.code),
      comment: c.comment ?? '', createdAt: new Date(c.createdAt), updatedAt: new Date(c.updatedAt),
      refactorsCount: this.json.refactors.filter((r) => r.codeId === id).length, trackbackUrl: c.trackbackUrl ?? '',
      userId: c.userId, tags: [...(c.tags ?? [])], user: this.user(c.userId),
    };
  }

  /** A refactoring as in the recent list (`inList`) or inside its code (language lower-cased, no user). */
  refactor(id: number, inList: boolean): Refactor {
    const r = this.json.refactors.find((x) => x.id === id)!;
    const code = this.json.codes.find((x) => x.id === r.codeId)!;
    const user = r.userId === null ? undefined : this.user(r.userId);
    const language = this.language(code.language);
    return {
      id: r.id, codeId: r.codeId, title: r.title ?? '', language: inList ? language : language.toLowerCase(), code: this.text(r.code),
      comment: r.comment ?? '', createdAt: new Date(r.createdAt), rating: r.rating, ratingsCount: r.ratingsCount, userId: r.userId,
      userName: user ? user.name : (r.userName ?? ''), userWebsite: user ? user.website : (r.userWebsite ?? ''),
      ...(inList && user ? { user } : {}),
    };
  }

  /** The single-code response: its author by user-id alone (no nested user), its refactorings oldest first. */
  singleCode(id: number): Code {
    const refactors = this.json.refactors
      .filter((r) => r.codeId === id)
      .sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt) || a.id - b.id)
      .map((r) => this.refactor(r.id, false));
    const { user: _user, ...code } = this.listCode(id);
    return { ...code, refactors };
  }

  /** Ids in recent order: newest first, ties by the higher id. */
  recentCodeIds(filter: (c: CodeJson) => boolean = () => true): number[] {
    return this.json.codes.filter(filter).sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt) || b.id - a.id).map((c) => c.id);
  }

  popularCodeIds(filter: (c: CodeJson) => boolean = () => true): number[] {
    const count = (id: number) => this.json.refactors.filter((r) => r.codeId === id).length;
    const recent = this.recentCodeIds(filter);
    return [...recent].sort((a, b) => count(b) - count(a) || recent.indexOf(a) - recent.indexOf(b));
  }

  recentRefactorIds(filter: (r: RefactorJson) => boolean = () => true): number[] {
    return this.json.refactors.filter(filter).sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt) || b.id - a.id).map((r) => r.id);
  }

  languageOf(codeId: number): string {
    return this.language(this.json.codes.find((c) => c.id === codeId)!.language);
  }
}
