// Prints the command line's row of docs/hostile.md: every hostile case served on loopback, the built
// CLI (dist/cli.js) run against it once as a user would, and what came out: exit status, the one line
// on stderr (with the server's address cut out), wall time and peak memory. The tests assert these
// outcomes (test/unit/hostile*.test.ts); this only measures them for the document.
//
//   npm run build && tsc -p . && node out/test/hostile/report.js

import { startHostileServer } from './server';
import { runCli } from './runCli';

interface Row {
  readonly issueCase: number;
  readonly name: string;
  /** The case segment of the base URL. */
  readonly route: string;
  readonly args?: readonly string[];
  readonly timeout?: number;
}

const ROWS: readonly Row[] = [
  { issueCase: 1, name: 'never answers', route: 'never', timeout: 1 },
  { issueCase: 1, name: 'headers, then stall', route: 'stall-headers', timeout: 1 },
  { issueCase: 1, name: 'drip, 1 byte/s', route: 'drip', timeout: 1 },
  { issueCase: 2, name: '500 with an HTML page', route: 'status-500' },
  { issueCase: 2, name: '404', route: 'status-404' },
  { issueCase: 2, name: '502', route: 'status-502' },
  { issueCase: 2, name: '503', route: 'status-503' },
  { issueCase: 2, name: '504', route: 'status-504' },
  { issueCase: 2, name: '429, Retry-After: 1', route: 'status-429-seconds-1' },
  { issueCase: 2, name: '429, Retry-After: HTTP-date +2 s', route: 'status-429-date-2', timeout: 8 },
  { issueCase: 2, name: '429, Retry-After: 100', route: 'status-429-seconds-100' },
  { issueCase: 3, name: 'HTML login page (200)', route: 'html-login' },
  { issueCase: 3, name: 'plain text (200)', route: 'text' },
  { issueCase: 3, name: 'JSON (200)', route: 'json' },
  { issueCase: 3, name: 'empty body (200)', route: 'empty' },
  { issueCase: 4, name: 'truncated XML', route: 'truncated' },
  { issueCase: 4, name: 'two roots', route: 'two-roots' },
  { issueCase: 4, name: 'wrong root', route: 'wrong-root' },
  { issueCase: 4, name: 'type mismatch', route: 'type-mismatch' },
  { issueCase: 5, name: '500 MiB with Content-Length', route: 'huge-length' },
  { issueCase: 5, name: '500 MiB chunked', route: 'huge-chunked' },
  { issueCase: 6, name: 'DOCTYPE entity bomb', route: 'bomb' },
  { issueCase: 6, name: '`__proto__`, `constructor` elements', route: 'proto', args: ['recent', '--json'] },
  { issueCase: 7, name: '3 redirects', route: 'redirect-3' },
  { issueCase: 7, name: '9 redirects', route: 'redirect-9' },
  { issueCase: 7, name: 'redirect loop', route: 'loop-a' },
  { issueCase: 7, name: 'redirect to file:', route: 'to-file' },
  { issueCase: 8, name: 'connection reset', route: 'reset' },
  { issueCase: 8, name: 'reset mid-body', route: 'reset-mid-body' },
  { issueCase: 9, name: 'invalid UTF-8', route: 'bad-utf8' },
  { issueCase: 9, name: 'NUL byte in code', route: 'nul', args: ['show', '1', '--json'] },
  { issueCase: 9, name: '1 MB single-line code', route: 'long-line', args: ['show', '1'] },
  { issueCase: 9, name: '10,000 lines of code', route: 'many-lines', args: ['show', '1'] },
  { issueCase: 9, name: '2,000 items in one list', route: 'many-items' },
  { issueCase: 9, name: '2.4 million `<z/>` in a code (9.6 MB)', route: 'element-flood' },
  { issueCase: 9, name: '800,000 attributes in a code (8.7 MB)', route: 'attribute-flood' },
  { issueCase: 10, name: 'markup and terminal controls in every field', route: 'markup' },
  { issueCase: 11, name: '`$1`, `${TM_FILENAME}`, backticks', route: 'snippet', args: ['show', '1', '--json'] },
];

function outcome(code: number | null, stdout: string, stderr: string, origin: string): string {
  const line = stderr.split('\n')[0];
  if (code !== 0) return `\`${line.replaceAll(origin, '').replace(/\|/g, '\\|')}\``;
  const lines = stdout.split('\n').length - 1;
  return `exit 0, ${lines.toLocaleString('en')} lines on stdout, ${Buffer.byteLength(stdout).toLocaleString('en')} bytes`;
}

async function main(): Promise<void> {
  const server = await startHostileServer({ lifetimeMs: 5 * 60_000 });
  try {
    console.log('| case | hostile answer | exit | stderr (base URL cut) or output | time | peak RSS |');
    console.log('|---|---|---|---|---|---|');
    for (const row of ROWS) {
      const args = [...(row.args ?? ['recent']), '--base-url', `${server.url}/${row.route}`, '--timeout', String(row.timeout ?? 5)];
      const run = await runCli(args, { measureMemory: true, timeoutMs: 20_000 });
      console.log(`| ${row.issueCase} | ${row.name} | ${run.code} | ${outcome(run.code, run.stdout, run.stderr, server.url)} | ${run.ms} ms | ${run.peakRssMiB ?? '?'} MiB |`);
    }
    // Case 8's other forms need no hostile server: nothing listens, no such host, not http.
    const others: [string, string][] = [
      ['connection refused', 'http://127.0.0.1:9'],
      ['unknown host', 'http://refactor-browser-test.invalid'],
      ['base URL not http(s)', 'ftp://127.0.0.1/'],
    ];
    for (const [name, base] of others) {
      const run = await runCli(['recent', '--base-url', base, '--timeout', '5'], { measureMemory: true, timeoutMs: 20_000 });
      console.log(`| 8 | ${name} | ${run.code} | ${outcome(run.code, run.stdout, run.stderr, '')} | ${run.ms} ms | ${run.peakRssMiB ?? '?'} MiB |`);
    }
  } finally {
    await server.close();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
