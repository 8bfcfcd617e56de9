// `npm run start:web`: VS Code's server (code-server, installed on first use) on a loopback port with
// this repository loaded as the extension under development, browsing the built-in sample catalog
// unless refactorBrowser.baseUrl is set. Prints the URL to open and runs until Ctrl-C, then stops
// code-server and its children by pid. REFACTOR_BROWSER_WEB_PORT picks the port (default: a free one).
import * as path from 'node:path';
import { ensureCodeServer } from './codeServerInstall';
import { startCodeServer } from './codeServerProcess';

const REPO = path.resolve(__dirname, '..', '..', '..');

async function main(): Promise<void> {
  const entry = await ensureCodeServer();
  const server = await startCodeServer({
    entry,
    port: Number(process.env.REFACTOR_BROWSER_WEB_PORT || 0),
  });
  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping code-server`);
    void server.stop().finally(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  void server.exited.then((status) => {
    if (stopping) return;
    console.error(`code-server exited (${status})`);
    void server.stop().finally(() => process.exit(1));
  });
  // The extension is loaded through the payload, so open this URL (not the bare origin).
  const url = server.workbenchUrl({ extensionDevelopmentPath: server.remoteUri(REPO), skipWelcome: 'true' });
  console.log(`Refactor Browser in VS Code for the Web: ${url}`);
  console.log('Press Ctrl-C to stop.');
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
});
