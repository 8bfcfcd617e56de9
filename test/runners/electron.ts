// `npm run test:electron`: the same integration suite in desktop VS Code, downloaded by
// @vscode/test-electron into .vscode-test/ (the standard path on a machine that can reach
// update.code.visualstudio.com; where it cannot, the download fails and test:integration is the way).
// VSCODE_VERSION picks the version (default: stable).
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runTests } from '@vscode/test-electron';
import { BASE_SETTINGS } from './codeServerProcess';

const REPO = path.resolve(__dirname, '..', '..', '..');

async function main(): Promise<number> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'refactor-browser-electron-'));
  try {
    const userData = path.join(root, 'user-data');
    const workspace = path.join(root, 'workspace');
    await fs.mkdir(path.join(userData, 'User'), { recursive: true });
    await fs.mkdir(workspace, { recursive: true });
    await fs.writeFile(path.join(userData, 'User', 'settings.json'), JSON.stringify(BASE_SETTINGS, null, 2));
    return await runTests({
      version: process.env.VSCODE_VERSION || 'stable',
      extensionDevelopmentPath: REPO,
      extensionTestsPath: path.join(REPO, 'out', 'test', 'integration', 'index.js'),
      launchArgs: [workspace, '--disable-extensions', '--disable-workspace-trust', '--user-data-dir', userData],
    });
  } catch (err) {
    console.error(`integration suite failed: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  } finally {
    await fs.rm(root, { recursive: true, force: true });
  }
}

if (require.main === module) {
  void main().then((status) => process.exit(status));
}
