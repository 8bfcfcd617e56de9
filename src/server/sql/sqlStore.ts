// The writable catalog store over PostgreSQL (embedded or a server: executor.ts), a facade over its
// duties: following the versions across instances (changes.ts), reads (reads.ts), contributions
// (contributions.ts), people (people.ts), whole catalogs in and out (transfer.ts) and the write rate
// (writeRate.ts).

import type { Dataset, DatasetCode, DatasetUser } from '../catalog/dataset';
import type { CatalogStore, CatalogWriter, ListedCode, ListedRefactor, Page, Summary, WriteResult } from '../store';
import { Versions } from './changes';
import { Contributions } from './contributions';
import { SqlError, type Sql } from './executor';
import { migrate } from './migrations';
import { People, PEOPLE_LOCK, type Person, type PersonRef } from './people';
import * as reads from './reads';
import { refuse } from './refusal';
import { catalogRows, type CatalogRows } from '../catalog/catalogRows';
import { exportCatalog, importCatalog, type ImportCounts } from './transfer';
import { takeWrite } from './writeRate';

export type { Person, PersonRef } from './people';

export class SqlStore implements CatalogStore {
  private closed = false;
  private readonly versions: Versions;
  private readonly contributions: Contributions;
  private readonly persons: People;
  readonly writer: CatalogWriter;

  private constructor(private readonly sql: Sql) {
    this.versions = new Versions(sql);
    const contributions = (this.contributions = new Contributions(sql, this.versions));
    const people = (this.persons = new People(sql, this.versions));
    this.writer = {
      personByTokenHash: (hash) => people.personByTokenHash(hash),
      authorByTokenHash: (hash) => people.authorByTokenHash(hash),
      addCode: (author, code, now) => contributions.addCode(author, code, now),
      addRefactor: (author, codeId, refactor, now) => contributions.addRefactor(author, codeId, refactor, now),
      rate: (person, codeId, refactorId, value) => contributions.rate(person, codeId, refactorId, value),
      deleteCode: (person, codeId) => contributions.deleteCode(person, codeId),
      deleteRefactor: (person, codeId, refactorId) => contributions.deleteRefactor(person, codeId, refactorId),
      takeWrite: (person, now, bound) => takeWrite(sql, person, now, bound),
    };
  }

  /** Migrates the schema, reads the version, and follows other instances' writes where the database can tell. */
  static async open(sql: Sql): Promise<SqlStore> {
    await migrate(sql);
    const store = new SqlStore(sql);
    await store.versions.start();
    return store;
  }

  get version(): number {
    return this.versions.version;
  }

  /** Reads the versions from the database, for a caller that cannot rely on notifications. */
  refreshVersion(): Promise<number> {
    return this.versions.refreshVersion();
  }

  async ping(): Promise<void> {
    if (this.closed) throw new SqlError('the storage is closed', undefined);
    await this.sql.query('select 1');
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.versions.stop();
    await this.sql.close();
  }

  // Reads

  summary(): Promise<Summary> {
    return reads.summary(this.sql);
  }

  recentCodes(language: string, page: number): Promise<Page<ListedCode>> {
    return reads.recentCodes(this.sql, language, page);
  }

  popularCodes(language: string, page: number): Promise<Page<ListedCode>> {
    return reads.popularCodes(this.sql, language, page);
  }

  taggedCodes(tag: string, language: string, page: number): Promise<{ readonly name: string; readonly page: Page<ListedCode> } | undefined> {
    return reads.taggedCodes(this.sql, tag, language, page);
  }

  recentRefactors(language: string, page: number): Promise<Page<ListedRefactor>> {
    return reads.recentRefactors(this.sql, language, page);
  }

  code(id: number): Promise<DatasetCode | undefined> {
    return reads.readCode(this.sql, id);
  }

  refactor(codeId: number, id: number): Promise<ListedRefactor | undefined> {
    return reads.readRefactor(this.sql, codeId, id);
  }

  user(id: number): Promise<DatasetUser | undefined> {
    return reads.readUser(this.sql, id);
  }

  // People: the command line's, not the HTTP service's.

  addPerson(name: string, about: { website?: string; identityUrl?: string }, tokenHash: string): Promise<WriteResult<Person>> {
    return this.persons.addPerson(name, about, tokenHash);
  }

  /** A new token for the person of that name or id; the old one stops working at once. */
  replaceToken(who: PersonRef, tokenHash: string): Promise<WriteResult<Person>> {
    return this.persons.replaceToken(who, tokenHash);
  }

  /** The person keeps their rows but can no longer write. */
  revoke(who: PersonRef): Promise<WriteResult<Person>> {
    return this.persons.revoke(who);
  }

  people(): Promise<Person[]> {
    return this.persons.people();
  }

  // Whole catalogs

  /**
   * Stores a catalog, all or nothing (one transaction). A mined catalog joins a store that holds
   * anything: new ids, people matched by name, codes mined before left out (transfer.ts). Any other
   * catalog keeps its ids, and an id, a person's name or a mined code already stored refuses it.
   * A Dataset, or its rows as catalogRows makes them (what a catalog read on a thread of its own hands over).
   */
  importCatalog(catalog: Dataset | CatalogRows): Promise<WriteResult<ImportCounts>> {
    const rows = 'batches' in catalog ? catalog : catalogRows(catalog);
    return this.contributions.write(async (tx) => {
      // As addPerson: so that no name is added twice meanwhile.
      await tx.query('select pg_advisory_xact_lock($1)', [PEOPLE_LOCK]);
      const result = await importCatalog(tx, rows);
      if ('clashes' in result) refuse('invalid', `Nothing was imported: ${result.clashes.join(', ')}`);
      return result;
    });
  }

  /** The catalog as `parseDataset` reads it, without tokens. */
  exportCatalog(): Promise<object> {
    return exportCatalog(this.sql);
  }
}

export function openSqlStore(sql: Sql): Promise<SqlStore> {
  return SqlStore.open(sql);
}
