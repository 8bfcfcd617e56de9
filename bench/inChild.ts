// Each part of a run measured in a fresh Node process of its own, as when it is run alone: the
// garbage an earlier group leaves (the decoding groups' multi-megabyte bodies) would otherwise sit in
// the heap that serves the next group's requests and lengthen its garbage collections, which a
// figure against a baseline in the same process does not cancel when the subject allocates more
// than the baseline. The child prints as it would alone (stdout and stderr are this process's); what
// it measured comes back as JSON lines on a pipe of its own (file descriptor 3), so no log line of a
// group can be mistaken for a figure.
import { spawn } from 'node:child_process';
import { writeSync } from 'node:fs';
import type { Readable } from 'node:stream';
import type { Figure } from './measure';

/** The file descriptor a child writes its figures to. */
export const RESULTS_FD = 3;

/** What a child writes on RESULTS_FD: a figure a line, or the one line of why its part broke. */
type ResultLine = { figure: Figure } | { broke: string };

/** In the child: one figure measured. */
export function sendFigure(figure: Figure): void {
  writeSync(RESULTS_FD, `${JSON.stringify({ figure } satisfies ResultLine)}\n`);
}

/** In the child: why the part broke, in one line. */
export function sendBroken(line: string): void {
  writeSync(RESULTS_FD, `${JSON.stringify({ broke: line } satisfies ResultLine)}\n`);
}

/**
 * Runs `node script ...args` and gives the figures it sent; rejects with the child's own one line
 * when it says its part broke, or saying how it ended when it ended otherwise than with exit code 0.
 */
export function figuresOfChild(script: string, args: readonly string[]): Promise<Figure[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'inherit', 'inherit', 'pipe'] });
    const results = child.stdio[RESULTS_FD] as Readable;
    let text = '';
    results.setEncoding('utf8');
    results.on('data', (chunk: string) => (text += chunk));
    child.once('error', reject);
    child.once('close', (code, signal) => {
      const figures: Figure[] = [];
      let broke: string | undefined;
      for (const line of text.split('\n')) {
        if (line === '') continue;
        const read = JSON.parse(line) as ResultLine;
        if ('figure' in read) figures.push(read.figure);
        else broke = read.broke;
      }
      // The child exits 0 once it has sent every figure, whether or not they hold their goals.
      if (broke !== undefined) reject(new Error(broke));
      else if (code !== 0) reject(new Error(`its process ended (${signal ?? `exit code ${code}`}) after ${figures.length} figure(s), without saying why`));
      else resolve(figures);
    });
  });
}
