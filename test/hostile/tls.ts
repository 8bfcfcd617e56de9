// A throwaway self-signed certificate for 127.0.0.1, made by openssl at test time (nothing secret is
// committed). A CLI process trusts it through NODE_EXTRA_CA_CERTS; undefined when openssl is missing.

import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export interface TestCertificate {
  key: string;
  cert: string;
  /** The certificate as a PEM file, for NODE_EXTRA_CA_CERTS. */
  certFile: string;
  dispose(): void;
}

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
