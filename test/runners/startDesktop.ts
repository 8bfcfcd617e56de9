// `npm run start:desktop`: desktop VS Code with this repository loaded as the extension under development,
// browsing the built-in sample catalog unless refactorBrowser.baseUrl is set. Uses `code` from PATH
// when there is one (your own VS Code, your profile), otherwise the VS Code that @vscode/test-electron
// downloads into .vscode-test/ with a profile of its own there. Machines that can reach neither use
// `npm start`, which serves VS Code for the Web.
import { spawn, execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { downloadAndUnzipVSCode } from '@vscode/test-electron';

const REPO = path.resolve(__dirname, '..', '..', '..');

function codeOnPath(): string | undefined {
  try {
    return execFileSync('which', ['code'], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

async function main(): Promise<number> {
  const devPath = `--extensionDevelopmentPath=${REPO}`;
  const code = process.env.REFACTOR_BROWSER_CODE || codeOnPath();
  if (code) {
    // The `code` launcher hands the window to a running VS Code and returns.
    console.log(`opening ${code} with the extension from ${REPO}`);
    const child = spawn(code, ['--new-window', devPath], { stdio: 'inherit' });
    return new Promise((resolve) => child.on('exit', (status) => resolve(status ?? 1)));
  }
  const executable = await downloadAndUnzipVSCode(process.env.VSCODE_VERSION || 'stable');
  const profile = path.join(REPO, '.vscode-test');
  const child = spawn(
    executable,
    [devPath, '--new-window', '--user-data-dir', path.join(profile, 'start-user-data'), '--extensions-dir', path.join(profile, 'start-extensions')],
    { stdio: 'inherit' },
  );
  const stop = (): void => {
    if (child.pid !== undefined && child.exitCode === null) child.kill('SIGTERM');
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  return new Promise((resolve) => child.on('exit', (status) => resolve(status ?? 0)));
}

main().then(
  (status) => process.exit(status),
  (err: unknown) => {
    console.error(`could not start VS Code: ${err instanceof Error ? err.message : String(err)}`);
    console.error('on a machine without desktop VS Code or a way to download it, use `npm start` (VS Code for the Web)');
    process.exit(1);
  },
);
