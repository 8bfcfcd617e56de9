// Starts code-server on loopback with a fresh profile (user data, extensions, workspace folder in a
// temp directory) and builds workbench URLs that load this repository as the extension under
// development. Shared by the integration launcher and `npm start`.
import type { ChildProcess } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { cleanEnv, run, spawnTracked, stopTree } from './processes';

/** Settings every run starts with: no welcome page, tips, update checks or telemetry in the way. */
export const BASE_SETTINGS: Record<string, unknown> = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'security.workspace.trust.enabled': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'chat.commandCenter.enabled': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
};

export interface CodeServer {
  /** e.g. `http://127.0.0.1:41234` (no trailing slash). */
  readonly origin: string;
  readonly port: number;
  readonly pid: number | undefined;
  readonly workspace: string;
  /** Resolves with the exit code or signal when the process ends, however it ends. */
  readonly exited: Promise<string>;
  /** The workbench URL opening the workspace, with the payload entries (e.g. extensionDevelopmentPath). */
  workbenchUrl(payload: Record<string, string>): string;
  /** A local absolute path as the workbench addresses it on this server. */
  remoteUri(localPath: string): string;
  /** Stops code-server and every process it started, then removes the temp folders. */
  stop(): Promise<void>;
}

export interface CodeServerOptions {
  entry: string;
  /** Default 0: the system picks a free port and code-server prints it, so nothing races for it. */
  port?: number;
  settings?: Record<string, unknown>;
  env?: Record<string, string>;
  /** Where its output goes, line by line (default: nowhere; it is kept for error messages). */
  log?: (line: string) => void;
  startTimeoutMs?: number;
  /** .vsix files to install into the fresh profile before starting, as a person installs extensions. */
  installVsix?: string | readonly string[];
  /** Workspace Trust on, as in a person's VS Code (off by default: a trust dialog would stop a test run). */
  workspaceTrust?: boolean;
  /** Files to put in the workspace folder, by path relative to it (e.g. `.vscode/settings.json`). */
  workspaceFiles?: Record<string, string>;
  /** VS Code's display language (`--locale`), e.g. `de`; default English. */
  locale?: string;
  /** Files to put in the user data folder, by path relative to it (e.g. `languagepacks.json`). */
  userDataFiles?: Record<string, string>;
}

export async function startCodeServer(options: CodeServerOptions): Promise<CodeServer> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'refactor-browser-code-server-'));
  const userData = path.join(root, 'user-data');
  const extensions = path.join(root, 'extensions');
  const workspace = path.join(root, 'workspace');
  await fs.mkdir(path.join(userData, 'User'), { recursive: true });
  await fs.mkdir(extensions, { recursive: true });
  await fs.mkdir(workspace, { recursive: true });
  // Its own config file: otherwise code-server writes a default one into ~/.config/code-server.
  const config = path.join(root, 'config.yaml');
  await fs.writeFile(config, 'auth: none\ncert: false\n');
  const trust = options.workspaceTrust ? { 'security.workspace.trust.enabled': true } : {};
  await fs.writeFile(
    path.join(userData, 'User', 'settings.json'),
    JSON.stringify({ ...BASE_SETTINGS, ...trust, ...options.settings }, null, 2),
  );
  for (const [folder, files] of [[workspace, options.workspaceFiles], [userData, options.userDataFiles]] as const) {
    for (const [relative, content] of Object.entries(files ?? {})) {
      const target = path.join(folder, relative);
      await fs.mkdir(path.dirname(target), { recursive: true });
      await fs.writeFile(target, content);
    }
  }

  for (const vsix of typeof options.installVsix === 'string' ? [options.installVsix] : options.installVsix ?? []) {
    await run(process.execPath, [options.entry, '--install-extension', vsix, '--extensions-dir', extensions, '--user-data-dir', userData], {
      label: 'install the .vsix',
    });
  }

  const args = [
    options.entry,
    '--config', config,
    '--auth', 'none',
    '--bind-addr', `127.0.0.1:${options.port ?? 0}`,
    '--disable-telemetry',
    '--disable-update-check',
    ...(options.workspaceTrust ? [] : ['--disable-workspace-trust']),
    '--disable-getting-started-override',
    ...(options.locale ? ['--locale', options.locale] : []),
    '--user-data-dir', userData,
    '--extensions-dir', extensions,
    workspace,
  ];
  // detached: its own process group, so stopTree reaches the server process it forks too.
  const child: ChildProcess = spawnTracked(process.execPath, args, {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: cleanEnv(options.env),
  });
  const output: string[] = [];
  const exited = new Promise<string>((resolve) => child.on('exit', (code, signal) => resolve(String(code ?? signal))));
  const stop = async (): Promise<void> => {
    await stopTree(child);
    await fs.rm(root, { recursive: true, force: true });
  };

  try {
    const origin = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('code-server did not start listening in time')), options.startTimeoutMs ?? 60_000);
      const onLine = (line: string): void => {
        output.push(line);
        options.log?.(line);
        const m = /HTTP server listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(line);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]);
        }
      };
      for (const stream of [child.stdout, child.stderr]) {
        let rest = '';
        stream?.on('data', (chunk: Buffer) => {
          const lines = (rest + chunk.toString('utf8')).split('\n');
          rest = lines.pop() ?? '';
          lines.forEach(onLine);
        });
      }
      void exited.then((status) => {
        clearTimeout(timer);
        reject(new Error(`code-server exited (${status}) before listening:\n${output.slice(-20).join('\n')}`));
      });
    });
    const port = Number(new URL(origin).port);
    const remoteUri = (localPath: string): string => `vscode-remote://127.0.0.1:${port}${path.resolve(localPath)}`;
    return {
      origin,
      port,
      pid: child.pid,
      workspace,
      exited,
      remoteUri,
      workbenchUrl(payload) {
        const entries = Object.entries(payload);
        const query = new URLSearchParams({ folder: workspace });
        if (entries.length > 0) query.set('payload', JSON.stringify(entries));
        return `${origin}/?${query.toString()}`;
      },
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
