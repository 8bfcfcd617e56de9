// People over SQL: the command line's (add, give a new token, revoke, list), and the write API's token
// lookups. Tokens are no page's content, so a change to one leaves the data version alone and bumps
// the people version instead.

import type { DatasetUser } from '../catalog/dataset';
import type { WriteResult } from '../store';
import type { Versions } from './changes';
import type { Sql } from './executor';
import { Refused, refuse } from './refusal';
import { userColumns, userOf, type UserRow } from './rows';

/** Who a token command names: a person's name, or `{ id }` (the only way to name one of two people of one name). */
export type PersonRef = string | { readonly id: number };

/** A person as the command line lists them: never their token's hash. */
export interface Person {
  readonly id: number;
  readonly name: string;
  readonly website: string;
  readonly identityUrl: string;
  readonly hasToken: boolean;
}

/** The same key in every instance: adding people one at a time keeps names unique. */
export const PEOPLE_LOCK = 0x7065_6f70;

/** Token hashes kept at once; past it, lookups are made each time until the people change. */
const MAX_KEPT_AUTHORS = 10_000;

const PERSON_COLUMNS = 'id, name, website, identity_url, token_hash is not null as has_token';

interface PersonRow {
  id: number | string;
  name: string;
  website: string;
  identity_url: string;
  has_token: boolean;
}

function personOf(row: PersonRow): Person {
  return { id: Number(row.id), name: row.name, website: row.website, identityUrl: row.identity_url, hasToken: row.has_token };
}

export class People {
  /** Token hashes of people who may write, known at a people version. */
  private authors: { version: number; ids: Map<string, number> } = { version: 0, ids: new Map() };

  constructor(
    private readonly sql: Sql,
    private readonly versions: Versions,
  ) {}

  async personByTokenHash(hash: string): Promise<DatasetUser | undefined> {
    const [row] = await this.sql.query<UserRow>(`select u.id, ${userColumns('u', '')} from users u where u.token_hash = $1`, [hash]);
    return row ? userOf(row) : undefined;
  }

  /**
   * Kept until any person's token changes here or in another instance (the people version), so a
   * write costs no lookup and a revoked or replaced token stops working at once. Unknown tokens are
   * not kept: made-up ones cannot fill memory.
   */
  async authorByTokenHash(hash: string): Promise<number | undefined> {
    if (this.authors.version !== this.versions.peopleVersion) this.authors = { version: this.versions.peopleVersion, ids: new Map() };
    const kept = this.authors.ids.get(hash);
    if (kept !== undefined) return kept;
    const { version } = this.authors;
    const [row] = await this.sql.query<{ id: number | string }>('select id from users where token_hash = $1', [hash]);
    if (!row) return undefined;
    if (this.authors.version === version && this.authors.ids.size < MAX_KEPT_AUTHORS) this.authors.ids.set(hash, Number(row.id));
    return Number(row.id);
  }

  async addPerson(name: string, about: { website?: string; identityUrl?: string }, tokenHash: string): Promise<WriteResult<Person>> {
    if (name.trim() === '') return { refused: 'invalid', message: 'A name must not be empty' };
    return this.peopleWrite(async (tx) => {
      await tx.query('select pg_advisory_xact_lock($1)', [PEOPLE_LOCK]);
      const taken = await tx.query('select 1 from users where name = $1', [name]);
      if (taken.length > 0) refuse('invalid', `The name "${name}" is already taken: choose another one`);
      const [row] = await tx.query<PersonRow>(
        `insert into users (name, website, identity_url, token_hash) values ($1, $2, $3, $4) returning ${PERSON_COLUMNS}`,
        [name, about.website ?? '', about.identityUrl ?? '', tokenHash],
      );
      return row;
    });
  }

  /** A new token for the person of that name or id; the old one stops working at once. */
  replaceToken(who: PersonRef, tokenHash: string): Promise<WriteResult<Person>> {
    return this.setToken(who, tokenHash);
  }

  /** The person keeps their rows but can no longer write. */
  revoke(who: PersonRef): Promise<WriteResult<Person>> {
    return this.setToken(who, null);
  }

  private setToken(who: PersonRef, tokenHash: string | null): Promise<WriteResult<Person>> {
    return this.peopleWrite(async (tx) => {
      const byName = typeof who === 'string';
      const found = await tx.query<{ id: number | string }>(`select id from users where ${byName ? 'name' : 'id'} = $1 order by id limit 2`, [byName ? who : who.id]);
      if (found.length === 0) refuse('not-found', byName ? `There is no person named "${who}"` : `There is no person with id ${who.id}`);
      // Names in a catalog imported before names were checked may repeat; a token belongs to one person.
      if (found.length > 1) refuse('invalid', `More than one person is named "${who as string}": name one by id ("users list" shows the ids)`);
      const [row] = await tx.query<PersonRow>(`update users set token_hash = $2 where id = $1 returning ${PERSON_COLUMNS}`, [found[0].id, tokenHash]);
      return row;
    });
  }

  /** A change to one person's token in one transaction that bumps the people version, here once it commits. */
  private async peopleWrite(fn: (tx: Sql) => Promise<PersonRow>): Promise<WriteResult<Person>> {
    try {
      const { row, version } = await this.sql.transaction(async (tx) => ({ row: await fn(tx), version: await this.versions.bumpPeopleVersion(tx) }));
      this.versions.seePeopleVersion(version);
      return { value: personOf(row) };
    } catch (e) {
      if (e instanceof Refused) return e.refusal;
      throw e;
    }
  }

  async people(): Promise<Person[]> {
    return (await this.sql.query<PersonRow>(`select ${PERSON_COLUMNS} from users order by id`)).map(personOf);
  }
}
