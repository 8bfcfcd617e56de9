#!/usr/bin/env node
// Prints the mutants a StrykerJS run left alive (Survived or NoCoverage) as a Markdown table, one row
// each, for the files under a path prefix, with the counts the score is made of.
//
//   node test/mutation/survivors-server.mjs <report.json> [path prefix, default src/server/]
//
// The report is a mutation-testing-report JSON: Stryker's json reporter output
// (reports/mutation/mutation.json) or an incremental file (test/mutation/stryker-incremental.json).
// Rows are sorted by file and line; the "why" column is left empty for the reader to fill in.
import * as fs from 'node:fs';

const [reportPath, prefix = 'src/server/'] = process.argv.slice(2);
if (!reportPath) {
  console.error('usage: survivors-server.mjs <report.json> [path prefix]');
  process.exit(2);
}
const report = JSON.parse(fs.readFileSync(reportPath, 'utf8'));

const DETECTED = new Set(['Killed', 'Timeout']);
const UNDETECTED = new Set(['Survived', 'NoCoverage']);
const short = (s, n = 60) => {
  const one = String(s ?? '').replace(/\s+/g, ' ');
  return (one.length > n ? `${one.slice(0, n - 1)}…` : one).replace(/\|/g, '\\|').replace(/`/g, "'");
};

const rows = [];
const perFile = [];
let detected = 0;
let undetected = 0;
for (const [file, { mutants }] of Object.entries(report.files).sort(([a], [b]) => a.localeCompare(b))) {
  if (!file.startsWith(prefix)) continue;
  const counts = { detected: 0, survived: 0, noCoverage: 0 };
  for (const m of mutants) {
    if (DETECTED.has(m.status)) counts.detected++;
    else if (m.status === 'Survived') counts.survived++;
    else if (m.status === 'NoCoverage') counts.noCoverage++;
    if (UNDETECTED.has(m.status)) {
      rows.push({ file, line: m.location.start.line, column: m.location.start.column, status: m.status, mutator: m.mutatorName, replacement: m.replacement });
    }
  }
  detected += counts.detected;
  undetected += counts.survived + counts.noCoverage;
  const total = counts.detected + counts.survived + counts.noCoverage;
  perFile.push(`| ${file} | ${counts.detected}/${total} | ${total ? ((100 * counts.detected) / total).toFixed(1) : '–'}% | ${counts.survived} | ${counts.noCoverage} |`);
}
rows.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column);

const total = detected + undetected;
console.log(`Under ${prefix}: ${detected} of ${total} mutants detected (${total ? ((100 * detected) / total).toFixed(2) : '–'}%), ${undetected} not (survived or not covered). Ignored, compile errors and static mutants are not counted.\n`);
console.log('| file | detected | score | survived | no coverage |\n|---|---|---|---|---|');
for (const line of perFile) console.log(line);
console.log('\n| file:line:col | status | mutator | replacement | why |\n|---|---|---|---|---|');
for (const r of rows) {
  console.log(`| ${r.file.slice(prefix.length)}:${r.line}:${r.column} | ${r.status} | ${r.mutator} | \`${short(r.replacement)}\` | |`);
}
