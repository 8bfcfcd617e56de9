// Hostile content (docs/hostile.md, cases 3, 4, 6, 9, 10, 11): bodies that are not XML, broken XML, entity
// bombs and prototype keys, odd bytes and huge texts, markup and terminal controls in every field,
// snippet syntax in code. The client must answer with typed values or one clear error; the built
// CLI (a real process) must exit 1 with one line, or print the text inert.

import { strict as assert } from 'node:assert';
import { RefactorClient } from '../../../src/client/client';
import type { Code, Refactor } from '../../../src/core/model';
import { startServer } from '../../../src/server/http/server';
import { MARKUP, markupCatalog, SNIPPET_CODE, TERMINAL_CONTROLS } from '../../hostile/bodies';
import { apiError, assertCliFailure } from '../../hostile/expect';
import { runCli } from '../../hostile/runCli';
import { startHostileServer, type HostileServer } from '../../hostile/server';

/** C0 controls but tab and newline, DEL and C1: what a terminal may act on. */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

describe('hostile content', function () {
  this.timeout(20_000);
  let server: HostileServer;
  const clients: RefactorClient[] = [];

  before(async () => {
    server = await startHostileServer();
  });
  after(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await server.close();
  });

  function client(caseName: string): RefactorClient {
    const c = new RefactorClient({ baseUrl: `${server.url}/${caseName}`, timeoutMs: 5000 });
    clients.push(c);
    return c;
  }
  const cli = (caseName: string, ...args: string[]) =>
    runCli([...args, '--base-url', `${server.url}/${caseName}`], { measureMemory: true });
  const listUrl = (caseName: string) => `${server.url}/${caseName}/codes/recent.xml`;

  describe('case 3: 200 with something that is not XML', () => {
    const cases: [string, RegExp][] = [
      ['html-login', /: expected XML, got an HTML page$/],
      ['text', /: expected XML, got plain text: "Service temporarily unavailable\. Please "$/],
      ['json', /: expected XML, got JSON: "\{\\"codes\\":\[\],\\"error\\":null\} "$/],
      ['empty', /: expected XML, got an empty body$/],
    ];

    it('client: says not XML for a login page, plain text, JSON and an empty body, never an empty list', async () => {
      for (const [name, message] of cases) {
        const c = client(name);
        for (const call of [c.recentCodes(), c.recentRefactorings(), c.code(1)]) {
          const err = await apiError(call);
          assert.equal(err.kind, 'not-xml', `${name}: ${err.message}`);
          assert.match(err.message, new RegExp(message.source.replace('$', '')), name);
        }
      }
    });

    it('CLI: exits 1 with the not-XML line for each, for lists and for show', async () => {
      const runs = await Promise.all(cases.flatMap(([name]) => [cli(name, 'recent'), cli(name, 'show', '1')]));
      cases.forEach(([name, message], i) => {
        assertCliFailure(runs[2 * i], listUrl(name), new RegExp(message.source, 'm'));
        assertCliFailure(runs[2 * i + 1], `${server.url}/${name}/codes/1.xml`, /: expected XML, got /);
      });
    });
  });

  describe('case 4: broken XML', () => {
    /** The elements left open where the body was cut, outermost first. */
    const TRUNCATED = /: malformed XML: the body ends inside <codes>, <code>(, <[a-z-]+>)* \(truncated\?\)$/;

    it('client: names the problem and the element for truncated, two roots, the wrong root and a type mismatch', async () => {
      const truncated = await apiError(client('truncated').recentCodes());
      assert.equal(truncated.kind, 'invalid-xml');
      assert.match(truncated.message, TRUNCATED);
      assert.match(truncated.element ?? '', /^codes\/code(\/[a-z-]+)*$/);

      const twoRoots = await apiError(client('two-roots').recentCodes());
      assert.equal(twoRoots.kind, 'invalid-xml');
      assert.equal(twoRoots.message, `${listUrl('two-roots')}: malformed XML: two root elements <codes> and <codes>`);
      assert.equal(twoRoots.element, 'codes');

      const wrongRoot = await apiError(client('wrong-root').recentCodes());
      assert.equal(wrongRoot.kind, 'wrong-root');
      assert.equal(wrongRoot.message, `${listUrl('wrong-root')}: expected <codes>, got <refactors>`);
      assert.equal(wrongRoot.element, 'refactors');

      const mismatch = await apiError(client('type-mismatch').recentCodes());
      assert.equal(mismatch.kind, 'type-mismatch');
      assert.equal(mismatch.message, `${listUrl('type-mismatch')}: <id type="integer"> in code 1 of the list is "twenty", not an integer`);
      assert.equal(mismatch.element, 'codes/code/id');
    });

    it('CLI: exits 1 with the same one line for each', async () => {
      const names = ['truncated', 'two-roots', 'wrong-root', 'type-mismatch'];
      const runs = await Promise.all(names.map((n) => cli(n, 'recent')));
      assertCliFailure(runs[0], listUrl('truncated'), new RegExp(TRUNCATED.source, 'm'));
      assertCliFailure(runs[1], listUrl('two-roots'), /: malformed XML: two root elements <codes> and <codes>$/m);
      assertCliFailure(runs[2], listUrl('wrong-root'), /: expected <codes>, got <refactors>$/m);
      assertCliFailure(runs[3], listUrl('type-mismatch'), /: <id type="integer"> in code 1 of the list is "twenty", not an integer$/m);
    });
  });

  describe('case 6: an entity bomb and prototype keys', () => {
    it('client: refuses a DOCTYPE bomb at once, before anything expands', async () => {
      const heapBefore = process.memoryUsage().heapUsed;
      const started = Date.now();
      for (const call of [client('bomb').recentCodes(), client('bomb').recentRefactorings(), client('bomb').code(1)]) {
        const err = await apiError(call);
        assert.equal(err.kind, 'invalid-xml');
        assert.match(err.message, /: a <!DOCTYPE> is not accepted/);
      }
      // Expanding a billion `lol`s would take minutes and gigabytes; 5 s is room for a loaded machine.
      assert.ok(Date.now() - started < 5000, `took ${Date.now() - started} ms`);
      // A billion `lol`s would be gigabytes; the refusal costs next to nothing.
      assert.ok(process.memoryUsage().heapUsed - heapBefore < 64 * 1024 * 1024);
    });

    it('client: __proto__, constructor and prototype elements are inert: same values, nothing polluted', async () => {
      const poisoned = await client('proto').recentCodes();
      assert.deepEqual(poisoned, await client('ok').recentCodes());
      assert.deepEqual(await client('proto').recentRefactorings(), await client('ok').recentRefactorings());
      assert.deepEqual(await client('proto').code(1), await client('ok').code(1));
      for (const item of poisoned) {
        assert.equal(Object.getPrototypeOf(item), Object.prototype);
        assert.equal(Object.hasOwn(item, '__proto__'), false);
      }
      assert.equal(({} as Record<string, unknown>).polluted, undefined);
      assert.equal((Object.prototype as Record<string, unknown>).polluted, undefined);
    });

    it('CLI: the bomb exits 1 fast with bounded memory; the prototype keys change nothing in the output', async () => {
      const bomb = await cli('bomb', 'recent');
      assertCliFailure(bomb, listUrl('bomb'), /: a <!DOCTYPE> is not accepted \(refused so that no declared entity is expanded\)$/m);
      // The memory is the point; the time bound only tells a refusal from an expansion (minutes), with
      // room for starting a process on a loaded machine.
      assert.ok(bomb.ms < 8000 && bomb.peakRssMiB! < 300, `${bomb.ms} ms, ${bomb.peakRssMiB} MiB`);
      const [proto, ok] = await Promise.all([cli('proto', 'recent', '--json'), cli('ok', 'recent', '--json')]);
      assert.equal(proto.code, 0, proto.stderr);
      assert.equal(proto.stdout, ok.stdout);
      report('bomb', bomb);
    });
  });

  describe('case 9: odd bytes and big texts', () => {
    it('client: invalid UTF-8 is refused with a message; a NUL byte is kept as data', async () => {
      const err = await apiError(client('bad-utf8').recentCodes());
      assert.equal(err.kind, 'invalid-xml');
      assert.equal(err.message, `${listUrl('bad-utf8')}: body is not valid UTF-8`);
      const [withNul, plain] = [await client('nul').code(1), await client('ok').code(1)];
      assert.equal(withNul.code, `\u0000${plain.code}`);
    });

    it('client: a 1 MiB single-line code, 10,000 lines of code and 2,000 items decode exactly and fast', async () => {
      let started = Date.now();
      const long = await client('long-line').code(1);
      assert.equal(long.code.length, 1024 * 1024);
      assert.equal(long.code.includes('\n'), false);
      assert.ok(long.refactors!.every((r) => r.code === long.code));
      const lines = await client('many-lines').code(1);
      assert.equal(lines.code.split('\n').length, 10_001);
      assert.equal(lines.code.split('\n')[9_999], `  line_9999 = compute(9999); // ${'.'.repeat(9999 % 40)}`);
      // Real time is the point here (a quadratic decode of these would take minutes), with room for a loaded machine.
      assert.ok(Date.now() - started < 8000, `big codes took ${Date.now() - started} ms`);
      started = Date.now();
      const items = await client('many-items').recentCodes();
      assert.deepEqual(items.map((c) => c.id), Array.from({ length: 2000 }, (_, i) => 2000 - i));
      const refactors = await client('many-items').recentRefactorings();
      assert.equal(refactors.length, 4000);
      assert.ok(Date.now() - started < 8000, `big lists took ${Date.now() - started} ms`);
    });

    it('CLI: invalid UTF-8 exits 1; NUL is dropped from text and escaped in JSON; big codes and lists print whole', async () => {
      assertCliFailure(await cli('bad-utf8', 'recent'), listUrl('bad-utf8'), /: body is not valid UTF-8$/m);
      const nulText = await cli('nul', 'show', '1');
      assert.equal(nulText.code, 0, nulText.stderr);
      assert.doesNotMatch(nulText.stdout, CONTROL);
      const nulJson = await cli('nul', 'show', '1', '--json');
      assert.equal((JSON.parse(nulJson.stdout) as Code).code.charCodeAt(0), 0);
      assert.doesNotMatch(nulJson.stdout, CONTROL);

      const [long, lines, items] = await Promise.all([cli('long-line', 'show', '1'), cli('many-lines', 'show', '1'), cli('many-items', 'recent')]);
      for (const [name, run] of [['long-line', long], ['many-lines', lines], ['many-items', items]] as const) {
        assert.equal(run.code, 0, `${name}: ${run.stderr}`);
        assert.ok(run.ms < 5000 && run.peakRssMiB! < 300, `${name}: ${run.ms} ms, ${run.peakRssMiB} MiB`);
        report(name, run);
      }
      const longest = Math.max(...long.stdout.split('\n').map((l) => l.length));
      assert.equal(longest, 4 + 1024 * 1024, 'the code line is printed whole, indented by 4');
      assert.equal(lines.stdout.split('\n').filter((l) => /^ {6}line_\d+ = /.test(l)).length, 3 * 10_000);
      assert.equal(items.stdout.split('\n').filter((l) => /^#\d+ {2}Code \d+$/.test(l)).length, 2000);
    });
  });

  describe('case 9: markup built to stall a parser', () => {
    const FLOOD = { 'element-flood': 'elements', 'attribute-flood': 'attributes' } as const;

    it('client: each list and a code end in a one-line too-large error that counts, not parses', async () => {
      for (const [route, what] of Object.entries(FLOOD)) {
        const cause = `more than 100,000 ${what}: far more than any list or code of the API holds, so it is not parsed`;
        for (const call of [(c: RefactorClient) => c.recentCodes(), (c: RefactorClient) => c.recentRefactorings(), (c: RefactorClient) => c.code(1)]) {
          const err = await apiError(call(client(route)));
          assert.equal(err.kind, 'too-large', err.message);
          assert.equal(err.reason, cause);
        }
      }
    });

    it('CLI: exits 1 with one line naming the URL and the count', async () => {
      for (const [route, what] of Object.entries(FLOOD)) {
        const run = await cli(route, 'recent');
        assertCliFailure(run, listUrl(route), new RegExp(`: more than 100,000 ${what}: far more than any list or code of the API holds, so it is not parsed$`, 'm'));
        report(route, run);
      }
    });
  });

  describe('case 10: markup and terminal controls in every text field', () => {
    it('client: every field arrives exactly as sent, as text', async () => {
      const [code] = await client('markup').recentCodes();
      assert.equal(code.title, `Title ${TERMINAL_CONTROLS}${MARKUP}`);
      assert.equal(code.comment, `Comment ${TERMINAL_CONTROLS}${MARKUP}`);
      assert.equal(code.user!.name, `Mallory ${TERMINAL_CONTROLS}${MARKUP}`);
      assert.equal(code.user!.website, 'javascript:alert(5)');
      assert.equal(code.trackbackUrl, 'javascript:alert(6)');
      const full = await client('markup').code(1);
      const anonymous = full.refactors!.find((r) => r.userId === null)!;
      assert.equal(anonymous.userName, `Anon ${TERMINAL_CONTROLS}${MARKUP}`);
      assert.equal(anonymous.userWebsite, 'javascript:alert(8)');
      assert.equal(full.code, `const s = '${TERMINAL_CONTROLS}${MARKUP}';\n`);
    });

    it('CLI: prints the markup as text with every terminal control stripped, in text and in JSON', async () => {
      const runs = await Promise.all([
        cli('markup', 'recent'), cli('markup', 'refactorings'), cli('markup', 'show', '1'),
        cli('markup', 'recent', '--json'), cli('markup', 'show', '1', '--json'),
      ]);
      for (const run of runs) {
        assert.equal(run.code, 0, run.stderr);
        assert.doesNotMatch(run.stdout, CONTROL, JSON.stringify(run.stdout.match(CONTROL)));
      }
      const [recent, refactorings, show, recentJson, showJson] = runs;
      const inert = MARKUP.replace(/\s+/g, ' ');
      assert.ok(recent.stdout.includes(`Title ]0;pwned[2J[31m1m${inert}`), recent.stdout);
      assert.ok(refactorings.stdout.includes(`Refactor ]0;pwned[2J[31m1m${inert}`), refactorings.stdout);
      for (const field of ['Title', 'Comment', 'Why', 'Anon']) assert.ok(show.stdout.includes(`${field} ]0;pwned[2J[31m1m`), field);
      // JSON keeps the exact text (a consumer gets what the service sent) with controls as \u escapes.
      assert.equal((JSON.parse(recentJson.stdout) as Code[])[0].title, `Title ${TERMINAL_CONTROLS}${MARKUP}`);
      // show lists the refactorings best rated first: the one commented "Why …" by its comment.
      const why = (JSON.parse(showJson.stdout) as Code).refactors!.find((r) => r.comment.startsWith('Why '));
      assert.equal(why?.comment, `Why ${TERMINAL_CONTROLS}${MARKUP}`);
    });

    it('reference service: its HTML pages show the markup escaped, with no tag, handler or javascript: link from the data', async () => {
      const service = await startServer({ port: 0, catalog: markupCatalog() });
      try {
        const pages = ['/', '/codes/recent', '/codes/popular', '/refactorings/recent', '/codes/1', `/tags/${encodeURIComponent('tag"><svg onload=alert(7)>')}`];
        for (const page of pages) {
          const res = await fetch(`${service.url}${page}`);
          assert.equal(res.status, 200, page);
          const html = await res.text();
          const tags = html.match(/<[^>]*>/g) ?? [];
          for (const tag of tags) {
            assert.doesNotMatch(tag, /^<(script|img|svg)\b/i, `${page}: ${tag}`);
            assert.doesNotMatch(tag, /\son\w+\s*=/i, `${page}: ${tag}`);
            assert.doesNotMatch(tag, /javascript:/i, `${page}: ${tag}`);
          }
          // The index lists only languages and tags; the other pages show titles, names and comments.
          const shown = page === '/' ? '<svg onload=alert(7)>' : '<script>alert(1)</script>';
          assert.ok(visibleText(html).includes(shown), `${page} shows the markup as text`);
          assert.match(res.headers.get('content-security-policy') ?? '', /default-src 'none'/);
        }
      } finally {
        await service.close();
      }
    });
  });

  describe('case 11: snippet syntax and backticks in code', () => {
    it('client: $1, ${TM_FILENAME} and backticks survive decoding byte for byte', async () => {
      const code = await client('snippet').code(1);
      assert.equal(code.code, SNIPPET_CODE);
      assert.equal(code.title, 'Snippet $1 ${TM_FILENAME} `x`');
      assert.deepEqual(code.refactors!.map((r: Refactor) => r.code), [SNIPPET_CODE, SNIPPET_CODE]);
      assert.equal((await client('snippet').recentCodes())[0].code, SNIPPET_CODE);
    });

    it('CLI: --json carries the code exactly and the text output shows every line as written', async () => {
      const [json, text] = await Promise.all([cli('snippet', 'show', '1', '--json'), cli('snippet', 'show', '1')]);
      assert.equal(json.code, 0, json.stderr);
      assert.equal((JSON.parse(json.stdout) as Code).code, SNIPPET_CODE);
      for (const line of SNIPPET_CODE.trimEnd().split('\n')) assert.ok(text.stdout.includes(`    ${line}\n`), line);
    });
  });
});

/** What a browser would show as text: tags dropped, character references decoded. */
function visibleText(html: string): string {
  const named: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
  return html
    .replace(/<[^>]*>/g, '')
    .replace(/&(?:#(\d+)|#x([0-9a-f]+)|(lt|gt|amp|quot|apos));/gi, (_, dec: string, hex: string, name: string) =>
      name ? named[name] : String.fromCodePoint(dec ? Number(dec) : parseInt(hex, 16)));
}

/** What the suite measured, for docs/hostile.md. */
function report(name: string, run: { ms: number; peakRssMiB?: number }): void {
  console.log(`      ${name}: CLI exited in ${run.ms} ms, peak RSS ${run.peakRssMiB} MiB`);
}
