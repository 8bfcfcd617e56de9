// The SQL store's codes table checks its language against a list written into a migration, and a
// released migration is never edited: this holds that list equal to the service's languages, so
// that adding a language to src/core/languages.ts without a migration fails here rather than in a
// contributor's write.

import * as assert from 'node:assert/strict';
import { SERVICE_LANGUAGES } from '../../../../src/core/languages';
import { MIGRATIONS } from '../../../../src/server/sql/migrations';

/** The names in a migration's `language in (...)` check, or undefined when it states none. */
function languagesChecked(sql: string): string[] | undefined {
  const list = /\blanguage in \(([^)]*)\)/.exec(sql)?.[1];
  return list?.split(',').map((quoted) => {
    const name = /^\s*'((?:[^']|'')*)'\s*$/.exec(quoted);
    assert.ok(name, `not a quoted name in the language check: ${quoted}`);
    return name[1].replace(/''/g, "'");
  });
}

describe('SQL store: the languages its schema takes', () => {
  it("are the service's languages, as the latest migration that states them lists them", () => {
    const stated = MIGRATIONS.map((m) => ({ version: m.version, languages: languagesChecked(m.sql) })).filter((m) => m.languages);
    assert.equal(stated[0]?.version, 1, 'migration 1 makes the codes table with its language check');
    const latest = stated[stated.length - 1];
    assert.deepEqual(
      latest.languages,
      SERVICE_LANGUAGES,
      `migration ${latest.version}'s language check differs from src/core/languages.ts: a released migration is never ` +
        'edited, so a new language needs a new migration that replaces the check on codes.language',
    );
  });
});
