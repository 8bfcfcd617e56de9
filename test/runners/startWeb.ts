// `npm start`: VS Code's server (code-server, installed on first use) on a loopback port with
// this repository loaded as the extension under development, browsing the built-in sample catalog
// unless refactorBrowser.baseUrl is set. Prints the URL to open and runs until Ctrl-C, then stops
// code-server and its children by pid. REFACTOR_BROWSER_WEB_PORT picks the port (default: a free one).
import * as path from 'node:path';
import { ensureCodeServer } from './codeServerInstall';
import { startCodeServer, type CodeServer } from './codeServerProcess';

const REPO = path.resolve(__dirname, '..', '..', '..');

async function main(): Promise<void> {
  // Handlers first: a Ctrl-C while code-server installs or starts exits through process.exit, whose
  // exit hook (processes.ts) kills whatever was spawned so far.
  let server: CodeServer | undefined;
  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping code-server`);
    void (server?.stop() ?? Promise.resolve()).finally(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  const entry = await ensureCodeServer();
  const starting = Date.now();
  console.log("starting VS Code's server…");
  server = await startCodeServer({
    entry,
    port: Number(process.env.REFACTOR_BROWSER_WEB_PORT || 0),
  });
  console.log(`VS Code's server started in ${Math.round((Date.now() - starting) / 1000)} s`);
  if (stopping) return;
  const started = server;
  void started.exited.then((status) => {
    if (stopping) return;
    console.error(`code-server exited (${status})`);
    void started.stop().finally(() => process.exit(1));
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
