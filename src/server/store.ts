// What the reference service reads its catalog from, and writes contributions to. The Responder
// (responses.ts) asks a store for one page, one code or one person at a time and keeps what it
// rendered for as long as the store's `version` stays the same, so unchanged data is read once.
// Two kinds: the memory store over a Dataset (the built-in sample, `--catalog`, `--generate`:
// read-only, and the only kind in the extension's bundles), and the SQL store (sql/) over embedded
// PostgreSQL or a PostgreSQL server, which also takes writes. No Node module here.

import type * as contract from '../core/writeContract';
import type { DatasetCode, DatasetRefactor, DatasetUser } from './catalog/dataset';

/** A code as lists show it: everything but its refactorings. */
export type ListedCode = Omit<DatasetCode, 'refactors'>;

/** What an HTML list of refactorings links each item to. */
export interface CodeHeading {
  readonly id: number;
  readonly title: string;
  readonly permalink: string;
}

/** A refactoring as the recent list shows it, with the code it refactors. */
export interface ListedRefactor extends DatasetRefactor {
  readonly of: CodeHeading;
}

/** One page of a listing (at most PAGE_SIZE items) and whether another page follows. */
export interface Page<T> {
  readonly items: readonly T[];
  readonly hasNext: boolean;
}

/** The index page's figures. */
export interface Summary {
  readonly codes: number;
  readonly refactors: number;
  /** The languages some code is in, in SERVICE_LANGUAGES order. */
  readonly languages: readonly string[];
  /** Every tag, as its most recent code spells it, with how many codes have it. */
  readonly tags: readonly { readonly name: string; readonly count: number }[];
}

/**
 * `language` arguments are language keys (languageKey in dataset.ts: the lower-cased canonical name),
 * '' for every language; `tag` arguments are lower-cased tags. Pages count from 1.
 */
export interface CatalogReader {
  /**
   * Changes with every committed write, here or (over one PostgreSQL) in another instance; read on
   * every request, so it is a field, not a query.
   */
  readonly version: number;
  summary(): Promise<Summary>;
  recentCodes(language: string, page: number): Promise<Page<ListedCode>>;
  /** Most refactorings first, ties as in recentCodes. */
  popularCodes(language: string, page: number): Promise<Page<ListedCode>>;
  /** undefined when no code has the tag; `name` as the most recent code with it spells it. */
  taggedCodes(tag: string, language: string, page: number): Promise<{ readonly name: string; readonly page: Page<ListedCode> } | undefined>;
  recentRefactors(language: string, page: number): Promise<Page<ListedRefactor>>;
  /** With its refactorings, oldest first. */
  code(id: number): Promise<DatasetCode | undefined>;
  /** undefined unless the refactoring exists and belongs to that code. */
  refactor(codeId: number, id: number): Promise<ListedRefactor | undefined>;
  /** A person as lists nest them (never their token): how a client names a single code's author. */
  user(id: number): Promise<DatasetUser | undefined>;
}

/** A new code or refactoring as the service made it of what was sent (writes/body.ts): the write contract's shapes, every field there. */
export type NewCode = Required<contract.NewCode>;
export type NewRefactor = Required<contract.NewRefactor>;


/** A person's own rows, and others': what a write may touch is decided inside its transaction. */
export type WriteRefusal =
  | { readonly refused: 'not-found'; readonly message: string }
  | { readonly refused: 'forbidden'; readonly message: string }
  | { readonly refused: 'invalid'; readonly message: string };

export type WriteResult<T> = { readonly refused?: undefined; readonly value: T } | WriteRefusal;

export interface CatalogWriter {
  /** The person a token belongs to (by its SHA-256, hex), if any, as they are now. */
  personByTokenHash(tokenHash: string): Promise<DatasetUser | undefined>;
  /** The id of the person a token belongs to: what a write needs, answered without a query where the store can. */
  authorByTokenHash(tokenHash: string): Promise<number | undefined>;
  /** Each write runs in one transaction, bumps `version` once it commits, and returns what to render. */
  /** The code as `GET /codes/{id}.xml` shows it, its author included. */
  addCode(author: number, code: NewCode, now: Date): Promise<DatasetCode>;
  addRefactor(author: number, codeId: number, refactor: NewRefactor, now: Date): Promise<WriteResult<ListedRefactor>>;
  /** A second rating or one of one's own refactoring is refused ('invalid'). */
  rate(person: number, codeId: number, refactorId: number, value: number): Promise<WriteResult<ListedRefactor>>;
  /** Its author only. */
  deleteCode(person: number, codeId: number): Promise<WriteResult<void>>;
  /** Its author or the code's. */
  deleteRefactor(person: number, codeId: number, refactorId: number): Promise<WriteResult<void>>;
  /**
   * Counts a write of `person` at `now` unless they made `bound` in the minute before, and then
   * answers how many milliseconds until they may write again; the count is the storage's, so it
   * holds across every instance over it.
   */
  takeWrite(person: number, now: Date, bound: number): Promise<number | undefined>;
}

export interface CatalogStore extends CatalogReader {
  /** Absent for a read-only store. */
  readonly writer?: CatalogWriter;
  /**
   * Resolves once the storage has answered a trivial query, rejects if it fails or takes too long:
   * the health check. Absent where the catalog is in memory and always answers.
   */
  ping?(): Promise<void>;
  /** Lets go of connections and files; reads after it fail. */
  close(): Promise<void>;
}
