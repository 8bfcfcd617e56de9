// `npm run bench`: every figure as one JSON line on stdout. `npm run bench -- <group>…` runs those
// groups alone; `vscode.tree` is the first expansion of the tree alone, in fresh windows;
// `service.write` the service group's write figure alone; `scale`
// (npm run bench:scale) is the deployment behind nginx, on a PostgreSQL server. Each part runs in a
// fresh process of its own (bench/inChild.ts): `run.js --part <group>[/<part>]` is that process.
import { bundleFigures } from './bundle';
import { clientFigures } from './client';
import { decodeFigures } from './decode';
import { scaleFigures } from './scale';
import { similarityFigures } from './similarity';
import { memoryFigures } from './memory';
import { figuresOfChild, sendBroken, sendFigure } from './inChild';
import { oneLine, runGroups, type GroupPart } from './runGroups';
import { stallFigures } from './stall';
import { throughputFigures } from './throughput';
import { vscodeFigures, vscodeTreeFigures } from './vscode';
import { writeFigures } from './write';

/** The name `--part` takes: the group, and the part where the group has several. */
const keyOf = (p: GroupPart): string => (p.part ? `${p.group}/${p.part}` : p.group);

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const parts: GroupPart[] = [
    { group: 'decode', run: decodeFigures },
    { group: 'stall', run: stallFigures },
    { group: 'client', run: clientFigures },
    // Three parts, so that one that breaks leaves the others' figures.
    { group: 'service', part: 'throughput', run: throughputFigures },
    { group: 'service', part: 'write', run: writeFigures },
    { group: 'service', part: 'memory', run: memoryFigures },
    { group: 'bundle', run: bundleFigures },
    { group: 'similarity', run: similarityFigures },
    { group: 'vscode', run: vscodeFigures },
    // Not part of a full run: `vscode` reports the same figure.
    { group: 'vscode.tree', run: vscodeTreeFigures, alone: true },
    // Nor this: the `service` group's write figure alone.
    { group: 'service.write', run: writeFigures, alone: true },
    // Nor this: it needs nginx and a PostgreSQL server (npm run bench:scale).
    { group: 'scale', run: scaleFigures, alone: true },
  ];
  if (args[0] === '--part') return runPart(parts, args[1]);
  return runGroups(parts.map((p) => ({ ...p, run: () => figuresOfChild(__filename, ['--part', keyOf(p)]) })), args);
}

/** In the child: the one part named, its figures sent to the parent; 0 once sent, 2 when it broke. */
async function runPart(parts: readonly GroupPart[], key: string | undefined): Promise<number> {
  const part = parts.find((p) => keyOf(p) === key);
  try {
    if (!part) throw new Error(`bench: no part ${key ?? '(none named)'} (the parts: ${parts.map(keyOf).join(', ')})`);
    for (const f of await part.run()) sendFigure(f);
    return 0;
  } catch (err) {
    sendBroken(oneLine(err));
    return 2;
  }
}

main().then((code) => process.exit(code), (err) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
  process.exit(2);
});
