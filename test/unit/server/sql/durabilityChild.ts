// Run by the durability test as its own process: writes codes into a PGlite data directory (on a
// worker thread, as serve --data-dir opens it) and prints `ack <id>` once each write has committed,
// until it is killed.

import { openPgliteWorker } from '../../../../src/server/sql/executor';
import { openSqlStore } from '../../../../src/server/sql/sqlStore';
import { tokenHash } from '../../../../src/server/tokens';

async function main(dataDir: string): Promise<void> {
  const store = await openSqlStore(await openPgliteWorker(dataDir));
  const person = await store.addPerson('Writer', {}, await tokenHash('writer'));
  if (person.refused) throw new Error(person.message);
  // Bounded, should the test fail to kill it.
  for (let i = 0; i < 500; i++) {
    const code = await store.writer.addCode(person.value.id, { title: `Code ${i}`, language: 'Ruby', comment: '', code: `p ${i}\n`, tags: ['durable'] }, new Date());
    process.stdout.write(`ack ${code.id}\n`);
  }
  await store.close();
}

main(process.argv[2]).catch((e: unknown) => {
  process.stderr.write(`${String(e)}\n`);
  process.exit(1);
});
