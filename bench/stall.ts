// Figure: bodies within the size cap built to stall a parser (2.4 million `<z/>` elements, 800,000
// attributes) against a plain body of the same size, each fetched and decoded by the built CLI as a
// process: the stall bodies must end in their one-line error within 3x the plain body's time.
import { execFile } from 'node:child_process';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { figure, interleave, median, type Figure } from './measure';

const CLI = path.resolve(__dirname, '../../dist/cli.js');
const GOAL = 3;
const HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n<codes type="array"><code><id type="integer">1</id><code>';
const TAIL = '</code></code></codes>\n';

const BODIES: Readonly<Record<string, string>> = {
  plain: `${HEAD}${'x'.repeat(9_600_000)}${TAIL}`,
  elements: `${HEAD}${'<z/>'.repeat(2_400_000)}${TAIL}`,
  attributes: `${HEAD}<z ${Array.from({ length: 800_000 }, (_, i) => `a${i}=""`).join(' ')}/>${TAIL}`,
};

function runCli(baseUrl: string, expectCode: number): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [CLI, 'recent', '--json', '--base-url', baseUrl], { timeout: 60_000, maxBuffer: 64 << 20 }, (err, _out, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
      if (code !== expectCode) reject(new Error(`${baseUrl}: exit ${code}, expected ${expectCode}: ${stderr.trim()}`));
      else resolve();
    });
  });
}

export async function stallFigures(): Promise<Figure[]> {
  const server = http.createServer((req, res) => {
    const body = BODIES[(req.url ?? '').split('/')[1]];
    if (body === undefined) res.writeHead(404).end();
    else res.writeHead(200, { 'content-type': 'application/xml; charset=utf-8' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const plain = (): Promise<void> => runCli(`${origin}/plain/`, 0);
    const out: Figure[] = [];
    for (const name of ['elements', 'attributes']) {
      const stalled = (): Promise<void> => runCli(`${origin}/${name}/`, 1);
      const { base, subj, ratios } = await interleave(plain, stalled, { rounds: 5, inner: 1, warmup: 1, maxMs: 60_000 });
      out.push(figure(
        { name: `decode.stall.${name}`, goal: GOAL, unit: 'ms per CLI run', note: `${(BODIES[name].length / 1e6).toFixed(1)} MB built to stall the parser, to its one-line error; baseline the CLI on a plain ${(BODIES.plain.length / 1e6).toFixed(1)} MB body` },
        median(subj), median(base), ratios,
      ));
    }
    return out;
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}
