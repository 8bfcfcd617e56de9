// `npm run test:deploy`: the deployment test (deploy.test.ts) with a PostgreSQL server. CI runs it
// inside scripts/withPostgres.sh, whose server REFACTOR_BROWSER_TEST_DATABASE names; run alone, it
// starts one the same way for itself. Needs nginx and PostgreSQL (Debian's packages) and a build
// (dist/cli.js).
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { TEST_DATABASE } from '../helpers/postgres';
import { missingPrerequisite } from './stack';

const ROOT = path.resolve(__dirname, '../../..');

function main(): number {
  const missing = missingPrerequisite();
  if (missing !== undefined) {
    process.stderr.write(`test:deploy: ${missing}\n`);
    return 1;
  }
  if (TEST_DATABASE === undefined) {
    const r = spawnSync('bash', [path.join(ROOT, 'scripts/withPostgres.sh'), process.execPath, __filename], { stdio: 'inherit', cwd: ROOT });
    return r.status ?? 1;
  }
  const mocha = path.join(ROOT, 'node_modules/mocha/bin/mocha.js');
  const r = spawnSync(process.execPath, [mocha, '--no-config', '--reporter', 'spec', '--timeout', '120000', path.join(__dirname, 'deploy.test.js')], { stdio: 'inherit', cwd: ROOT });
  return r.status ?? 1;
}

process.exit(main());
