// A throwaway self-signed certificate for 127.0.0.1, made by openssl at test time (nothing secret is
// committed). A CLI process trusts it through NODE_EXTRA_CA_CERTS. A test takes it with
// certificateOrSkip(this): pending without openssl, failing in CI (test/unit/testHelpers.test.ts
// refuses a check of its own).

import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { skipOutsideCi } from '../helpers/skip';

export interface TestCertificate {
  key: string;
  cert: string;
  /** The certificate as a PEM file, for NODE_EXTRA_CA_CERTS. */
  certFile: string;
  dispose(): void;
}

/** A new certificate, or undefined when openssl is missing (or fails). */
export function makeTestCertificate(): TestCertificate | undefined {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rb-hostile-tls-'));
  const keyFile = path.join(dir, 'key.pem');
  const certFile = path.join(dir, 'cert.pem');
  const dispose = () => fs.rmSync(dir, { recursive: true, force: true });
  try {
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
      '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', keyFile, '-out', certFile,
    ], { stdio: 'ignore', timeout: 10_000 });
  } catch {
    dispose();
    return undefined;
  }
  return { key: fs.readFileSync(keyFile, 'utf8'), cert: fs.readFileSync(certFile, 'utf8'), certFile, dispose };
}

/**
 * A new certificate for the test or suite `context` runs (the caller disposes of it); without
 * openssl the test is pending, or in CI fails saying what to install (skipOutsideCi). `env` and `make` are the
 * process's and openssl's; a test of this helper passes its own.
 */
export function certificateOrSkip(
  context: Pick<Mocha.Context, 'skip'>,
  env: NodeJS.ProcessEnv = process.env,
  make: () => TestCertificate | undefined = makeTestCertificate,
): TestCertificate {
  return make() ?? skipOutsideCi(context, 'CI runs the TLS tests: install openssl (apt-get install openssl)', env);
}
