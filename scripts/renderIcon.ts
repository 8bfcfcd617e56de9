// `npm run icon`: renders the marketplace icon, media/icon.svg, to media/icon.png (128×128, package.json
// `icon`; the Marketplace and VS Code take no SVG there) in headless Chromium, as the test launchers
// start it. `--preview FILE` also writes a sheet of the PNG at the sizes VS Code shows it (128 px in the
// extension's page, 42 px in the Extensions view, 32 and 16 px for a look at its legibility) on a
// dark and a light background.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { launchChromium } from '../test/runners/codeServer';

const REPO = path.resolve(__dirname, '..', '..');
const SOURCE = path.join(REPO, 'media', 'icon.svg');
const TARGET = path.join(REPO, 'media', 'icon.png');
const SIZE = 128;
const PREVIEW_SIZES = [128, 42, 32, 16];

async function main(): Promise<void> {
  const previewAt = process.argv.indexOf('--preview');
  const preview = previewAt >= 0 ? process.argv[previewAt + 1] : undefined;
  const svg = await fs.readFile(SOURCE, 'utf8');
  const chromium = await launchChromium();
  try {
    const page = await chromium.browser.newPage({ viewport: { width: SIZE, height: SIZE }, deviceScaleFactor: 1 });
    await page.setContent(`<!DOCTYPE html><body style="margin:0">${svg}</body>`);
    const png = await page.locator('svg').screenshot({ omitBackground: true });
    await fs.writeFile(TARGET, png);
    console.log(`wrote ${path.relative(REPO, TARGET)} (${png.length} bytes)`);
    if (preview) {
      const src = `data:image/png;base64,${png.toString('base64')}`;
      const row = (bg: string): string => `<div style="background:${bg};padding:16px;display:flex;gap:24px;align-items:center">${
        PREVIEW_SIZES.map((s) => `<img src="${src}" width="${s}" height="${s}">`).join('')}</div>`;
      await page.setViewportSize({ width: 360, height: 320 });
      await page.setContent(`<!DOCTYPE html><body style="margin:0">${row('#1e1e1e')}${row('#f3f3f3')}</body>`);
      await page.screenshot({ path: preview, fullPage: true });
      console.log(`wrote ${preview}`);
    }
    await page.close();
  } finally {
    await chromium.stop();
  }
}

void main().then(() => process.exit(0), (err: unknown) => {
  console.error(`icon not rendered: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
