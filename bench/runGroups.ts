// How `npm run bench` runs its groups and what its exit code says. Every group runs to its end and
// its figures are printed as each part ends; a group that throws is one line on stderr naming it,
// and the groups after it still run, so that one broken group hides no other figure. The exit code:
// 0 when every goal holds, 1 when some goal misses, 2 when the run itself broke (a group threw, or
// a group asked for does not exist), whatever the figures said.
import { report as printFigure, type Figure } from './measure';

export interface GroupPart {
  /** The group's name, as `npm run bench -- <group>` asks for it; several parts may share one. */
  readonly group: string;
  /** What of the group this part measures, named when the group has several parts. */
  readonly part?: string;
  readonly run: () => Promise<Figure[]>;
  /** Run only when asked for by name, not in a full run. */
  readonly alone?: boolean;
}

export interface RunOutput {
  figure(f: Figure): void;
  /** One line: what broke. */
  broken(line: string): void;
}

export const CONSOLE_OUTPUT: RunOutput = {
  figure: printFigure,
  broken: (line) => process.stderr.write(`${line}\n`),
};

export type ExitCode = 0 | 1 | 2;

/**
 * Runs `parts` in order (those of the groups in `only`, or when it is empty every part not run
 * alone) and gives the exit code. A name in `only` that no part has is reported before anything runs.
 */
export async function runGroups(parts: readonly GroupPart[], only: readonly string[], out: RunOutput = CONSOLE_OUTPUT): Promise<ExitCode> {
  const known = new Set(parts.map((p) => p.group));
  const unknown = only.filter((name) => !known.has(name));
  if (unknown.length > 0) {
    out.broken(`bench: no group ${unknown.join(', ')} (the groups: ${[...known].join(', ')})`);
    return 2;
  }
  let failed = 0;
  let broken = 0;
  for (const p of parts) {
    if (only.length > 0 ? !only.includes(p.group) : p.alone) continue;
    let figures: Figure[];
    try {
      figures = await p.run();
    } catch (err) {
      broken++;
      out.broken(`bench: the ${p.group} group${p.part ? ` (${p.part})` : ''} broke: ${oneLine(err)}`);
      continue;
    }
    for (const f of figures) {
      out.figure(f);
      if (!f.pass) failed++;
    }
  }
  return broken > 0 ? 2 : failed > 0 ? 1 : 0;
}

/** An error's message in one line. */
export function oneLine(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text.replace(/\s+/g, ' ').trim() || 'no message';
}
