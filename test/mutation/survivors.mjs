#!/usr/bin/env node
// Prints, as Markdown, the mutants a StrykerJS run left alive under a path prefix: first the counts
// (detected/valid and the score, as Stryker reckons them, per file and in all), then one row per
// Survived or NoCoverage mutant (file:line:column, status, mutator, replacement), for a survivors
// document whose last column says why each one is left.
//
//   node test/mutation/survivors.mjs <mutation-report.json> [path-prefix]
//
// The report is Stryker's JSON (the json reporter's reports/mutation/mutation.json, or an incremental
// report as committed, gzip-compressed, such as .stryker-incremental/stryker-incremental.json.gz);
// path-prefix defaults to '' (every file), e.g. `src/api/` or `src/server/`.
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';

const [reportPath, prefix = ''] = process.argv.slice(2);
if (!reportPath) {
  console.error('usage: node test/mutation/survivors.mjs <mutation-report.json> [path-prefix]');
  process.exit(2);
}
const bytes = readFileSync(reportPath);
const report = JSON.parse((reportPath.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8'));
const DETECTED = new Set(['Killed', 'Timeout']);
const UNDETECTED = new Set(['Survived', 'NoCoverage']);

const files = Object.entries(report.files)
  .filter(([path]) => path.replace(/\\/g, '/').startsWith(prefix))
  .sort(([a], [b]) => a.localeCompare(b));
const count = (mutants) => {
  const detected = mutants.filter((m) => DETECTED.has(m.status)).length;
  const survived = mutants.filter((m) => m.status === 'Survived').length;
  const noCoverage = mutants.filter((m) => m.status === 'NoCoverage').length;
  const valid = detected + survived + noCoverage;
  return { detected, survived, noCoverage, valid, score: valid ? (100 * detected) / valid : NaN };
};
const row = (name, c) => `| ${name} | ${c.detected}/${c.valid} | ${c.survived} | ${c.noCoverage} | ${c.valid ? `${c.score.toFixed(2)}%` : "n/a"} |`;
const all = count(files.flatMap(([, f]) => f.mutants));

console.log('| file | detected/valid | survived | no coverage | score |');
console.log('|---|---|---|---|---|');
for (const [path, f] of files) console.log(row(path, count(f.mutants)));
console.log(row(`**all of ${prefix || 'the report'}**`, all));
console.log('');
console.log('| mutant | status | mutator | replacement | why it is left |');
console.log('|---|---|---|---|---|');
for (const [path, f] of files) {
  const left = f.mutants.filter((m) => UNDETECTED.has(m.status))
    .sort((a, b) => a.location.start.line - b.location.start.line || a.location.start.column - b.location.start.column);
  for (const m of left) {
    const replacement = (m.replacement ?? '').replace(/\s+/g, ' ').replace(/\|/g, '\\|');
    const short = replacement.length > 60 ? `${replacement.slice(0, 57)}...` : replacement;
    console.log(`| ${path}:${m.location.start.line}:${m.location.start.column} | ${m.status} | ${m.mutatorName} | \`${short}\` | |`);
  }
}
