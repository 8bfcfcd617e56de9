// `npm run bench`: every figure as one JSON line on stdout. `npm run bench -- <group>…` runs those
// groups alone; `vscode.tree` is the first expansion of the tree alone, in fresh windows;
// `service.write` the service group's write figure alone; `scale`
// (npm run bench:scale) is the deployment behind nginx, on a PostgreSQL server.
import { bundleFigures } from './bundle';
import { clientFigures } from './client';
import { decodeFigures } from './decode';
import { report, type Figure } from './measure';
import { scaleFigures } from './scale';
import { similarityFigures } from './similarity';
import { memoryFigures } from './memory';
import { stallFigures } from './stall';
import { throughputFigures } from './throughput';
import { vscodeFigures, vscodeTreeFigures } from './vscode';
import { writeFigures } from './write';

async function main(): Promise<number> {
  const only = process.argv.slice(2);
  const groups: Array<[string, () => Promise<Figure[]>]> = [
    ['decode', decodeFigures],
    ['stall', stallFigures],
    ['client', clientFigures],
    ['service', async () => [...(await throughputFigures()), ...(await writeFigures()), ...(await memoryFigures())]],
    ['bundle', bundleFigures],
    ['similarity', similarityFigures],
    ['vscode', vscodeFigures],
  ];
  // Not part of a full run: `vscode` reports the same figure.
  if (only.includes('vscode.tree')) groups.push(['vscode.tree', vscodeTreeFigures]);
  // Nor this: the `service` group's write figure alone.
  if (only.includes('service.write')) groups.push(['service.write', writeFigures]);
  // Not part of a full run either: it needs nginx and a PostgreSQL server (npm run bench:scale).
  if (only.includes('scale')) groups.push(['scale', scaleFigures]);
  let failed = 0;
  for (const [name, run] of groups) {
    if (only.length > 0 && !only.includes(name)) continue;
    for (const f of await run()) {
      report(f);
      if (!f.pass) failed++;
    }
  }
  return failed === 0 ? 0 : 1;
}

main().then((code) => process.exit(code), (err) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
  process.exit(2);
});
