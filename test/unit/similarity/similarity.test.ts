// Finding similar code as a person relies on it: a renamed and reformatted copy of a catalog code
// finds it first, in every language the service has (by a grammar or by characters); unrelated code
// is not shown; fingerprints read back as they were saved and are made again when their code changes;
// hostile input ends in a one-line reason within the deadline.
import { strict as assert } from 'node:assert';
import type { Code, Refactor } from '../../../src/core/model';
import { nodeGrammarFiles } from '../../../src/cli/grammarFiles';
import { CodeSearch } from '../../../src/search/searchIndex';
import { coveredSpan, fingerprint, K, similarity, W } from '../../../src/similarity/fingerprint';
import { GrammarError, Grammars, hasGrammar } from '../../../src/similarity/grammars';
import { lexicalTokens } from '../../../src/similarity/lexical';
import { SimilarityIndex, SimilarityIndexError } from '../../../src/similarity/similarIndex';
import { Tokenizers } from '../../../src/similarity/tokenize';
import { MAX_COMPARED_LINES, TooLongError } from '../../../src/similarity/tokens';
import { fileExtensionOf, matchingServiceLanguage, SERVICE_LANGUAGES, toServiceLanguage, toVsCodeLanguageId } from '../../../src/core/languages';
import { bestRefactor, languageOfFile } from '../../../src/similarity/catalogMatch';
import { aCode, aRefactor } from '../../helpers/builders';

const grammars = new Grammars(nodeGrammarFiles());
const tokenizers = new Tokenizers(grammars);

const kinds = async (text: string, language: string): Promise<string[]> => (await tokenizers.tokenize(text, language)).tokens.map((t) => t.kind);

/** A code and a renamed, reformatted, recommented copy of it, in each of the service's languages. */
const PAIRS: Record<string, [string, string]> = {
  Ruby: [
    'def total_weight(parcels)\n  sum = 0\n  parcels.each do |p|\n    sum += p.weight if p.ok?\n  end\n  sum\nend\n',
    'def mass_of(boxes)\n  acc = 0 # running total\n  boxes.each   do |b|\n    acc += b.mass if b.ok?\n  end\n  acc\nend\n',
  ],
  Python: [
    'def total_weight(parcels):\n    total = 0\n    for p in parcels:\n        if p.ok:\n            total += p.weight\n    return total\n',
    'def mass_of(boxes):\n    # adds them up\n    acc = 0\n    for b in boxes:\n        if b.ok:\n            acc += b.mass\n    return acc\n',
  ],
  JavaScript: [
    'function totalWeight(parcels) {\n  let sum = 0;\n  for (const p of parcels) {\n    if (p.ok) sum += p.weight;\n  }\n  return sum;\n}\n',
    'function massOf(boxes) { let acc = 0; /* x */ for (const b of boxes) { if (b.ok) acc += b.mass; } return acc; }\n',
  ],
  Java: [
    'int totalWeight(List<Parcel> parcels) {\n  int sum = 0;\n  for (Parcel p : parcels) {\n    if (p.ok()) sum += p.weight();\n  }\n  return sum;\n}\n',
    'int massOf(List<Box> boxes) {\n  int acc = 0; // total\n  for (Box b : boxes) { if (b.ok()) acc += b.mass(); }\n  return acc;\n}\n',
  ],
  PHP: [
    '<?php\nfunction total_weight($parcels) {\n  $sum = 0;\n  foreach ($parcels as $p) {\n    if ($p->ok) $sum += $p->weight;\n  }\n  return $sum;\n}\n',
    '<?php\nfunction mass_of($boxes) {\n  $acc = 0; # x\n  foreach ($boxes as $b) { if ($b->ok) $acc += $b->mass; }\n  return $acc;\n}\n',
  ],
  'C#': [
    'int TotalWeight(List<Parcel> parcels) {\n  int sum = 0;\n  foreach (var p in parcels) {\n    if (p.Ok) sum += p.Weight;\n  }\n  return sum;\n}\n',
    'int MassOf(List<Box> boxes) {\n  int acc = 0; // x\n  foreach (var b in boxes) { if (b.Ok) acc += b.Mass; }\n  return acc;\n}\n',
  ],
  'C++': [
    'int total_weight(const std::vector<Parcel>& parcels) {\n  int sum = 0;\n  for (const auto& p : parcels) {\n    if (p.ok) sum += p.weight;\n  }\n  return sum;\n}\n',
    'int mass_of(const std::vector<Box>& boxes) {\n  int acc = 0; // x\n  for (const auto& b : boxes) { if (b.ok) acc += b.mass; }\n  return acc;\n}\n',
  ],
  C: [
    'int total_weight(const struct parcel *parcels, int n) {\n  int sum = 0;\n  for (int i = 0; i < n; i++) {\n    if (parcels[i].ok) sum += parcels[i].weight;\n  }\n  return sum;\n}\n',
    'int mass_of(const struct box *boxes, int count) {\n  int acc = 0; /* x */\n  for (int j = 0; j < count; j++) { if (boxes[j].ok) acc += boxes[j].mass; }\n  return acc;\n}\n',
  ],
  Bash: [
    'total_weight() {\n  local sum=0\n  for p in "$@"; do\n    if [ -f "$p" ]; then\n      sum=$((sum + $(wc -c < "$p")))\n    fi\n  done\n  echo "$sum"\n}\n',
    'mass_of() {\n  local acc=0 # x\n  for b in "$@"; do\n    if [ -f "$b" ]; then\n      acc=$((acc + $(wc -c < "$b")))\n    fi\n  done\n  echo "$acc"\n}\n',
  ],
  ActionScript: [
    'function totalWeight(parcels:Array):int {\n  var sum:int = 0;\n  for each (var p:Parcel in parcels) {\n    if (p.ok) sum += p.weight;\n  }\n  return sum;\n}\n',
    'function massOf(boxes:Array):int {\n  var acc:int = 0; // x\n  for each (var b:Box in boxes) { if (b.ok) acc += b.mass; }\n  return acc;\n}\n',
  ],
  'VB.NET': [
    'Function TotalWeight(parcels As List(Of Parcel)) As Integer\n  Dim sum As Integer = 0\n  For Each p In parcels\n    If p.Ok Then sum += p.Weight\n  Next\n  Return sum\nEnd Function\n',
    'Function MassOf(boxes As List(Of Box)) As Integer\n  Dim acc As Integer = 0 \' x\n  For Each b In boxes\n    If b.Ok Then acc += b.Mass\n  Next\n  Return acc\nEnd Function\n',
  ],
  Perl: [
    'sub total_weight {\n  my @parcels = @_;\n  my $sum = 0;\n  foreach my $p (@parcels) {\n    $sum += $p->{weight} if $p->{ok};\n  }\n  return $sum;\n}\n',
    'sub mass_of {\n  my @boxes = @_; # x\n  my $acc = 0;\n  foreach my $b (@boxes) { $acc += $b->{mass} if $b->{ok}; }\n  return $acc;\n}\n',
  ],
  Lisp: [
    '(defun total-weight (parcels)\n  (let ((sum 0))\n    (dolist (p parcels sum)\n      (when (parcel-ok p)\n        (incf sum (parcel-weight p))))))\n',
    '(defun mass-of (boxes) ; x\n  (let ((acc 0))\n    (dolist (b boxes acc) (when (box-ok b) (incf acc (box-mass b))))))\n',
  ],
  Erlang: [
    'total_weight(Parcels) ->\n  lists:foldl(fun(P, Sum) ->\n    case ok(P) of\n      true -> Sum + weight(P);\n      false -> Sum\n    end\n  end, 0, Parcels).\n',
    'mass_of(Boxes) -> % x\n  lists:foldl(fun(B, Acc) -> case ok(B) of true -> Acc + mass(B); false -> Acc end end, 0, Boxes).\n',
  ],
  Haskell: [
    'totalWeight :: [Parcel] -> Int\ntotalWeight parcels = sum [weight p | p <- parcels, ok p]\n  where unused = 0\n',
    'massOf :: [Box] -> Int\nmassOf boxes = sum [mass b | b <- boxes, ok b] -- x\n  where unused = 0\n',
  ],
  Delphi: [
    'function TotalWeight(Parcels: TList): Integer;\nvar\n  I: Integer;\nbegin\n  Result := 0;\n  for I := 0 to Parcels.Count - 1 do\n    if Parcels[I].Ok then Result := Result + Parcels[I].Weight;\nend;\n',
    'function MassOf(Boxes: TList): Integer;\nvar\n  J: Integer; { x }\nbegin\n  Result := 0;\n  for J := 0 to Boxes.Count - 1 do\n    if Boxes[J].Ok then Result := Result + Boxes[J].Mass;\nend;\n',
  ],
};

describe('similarity: tokens', () => {
  it('has a tokenizer for every language of the service, a grammar for nine of them', async () => {
    assert.deepEqual(Object.keys(PAIRS).sort(), [...SERVICE_LANGUAGES].sort());
    assert.deepEqual(SERVICE_LANGUAGES.filter(hasGrammar).sort(), ['Bash', 'C', 'C#', 'C++', 'Java', 'JavaScript', 'PHP', 'Python', 'Ruby']);
    for (const language of SERVICE_LANGUAGES) {
      const [a, b] = PAIRS[language];
      assert.deepEqual(await kinds(b, language), await kinds(a, language), `${language}: renaming, reformatting and comments change no kind`);
      const { by } = await tokenizers.tokenize(a, language);
      assert.equal(by, hasGrammar(language) ? 'tree' : 'lexical', language);
    }
  });

  it('keeps operators and keywords apart, and names and literals as kinds of their own', async () => {
    assert.notDeepEqual(await kinds('x = a + b\n', 'Python'), await kinds('x = a - b\n', 'Python'));
    assert.notDeepEqual(await kinds('while x:\n  y()\n', 'Python'), await kinds('if x:\n  y()\n', 'Python'));
    assert.deepEqual(await kinds('x = "one" + 2\n', 'Python'), ['ID', '=', 'LIT', '+', 'LIT']);
    assert.deepEqual(lexicalTokens('x := \'it\'\'s\' + 2; { a comment }', 'Delphi').map((t) => t.kind), ['ID', ':=', 'LIT', '+', 'LIT', ';']);
    assert.deepEqual(lexicalTokens('If x Then y = 1 \' note', 'VB.NET').map((t) => t.kind), ['if', 'ID', 'then', 'ID', '=', 'LIT']);
  });

  it('gives each token its text and place, the first line being 0', async () => {
    const { tokens } = await tokenizers.tokenize('def f(a):\n  return a\n', 'Python');
    const last = tokens[tokens.length - 1];
    assert.deepEqual([last.text, last.line, last.start, last.end], ['a', 1, 19, 20]);
  });

  it('refuses a text too long to compare, in one line and at once', async () => {
    const long = 'x = 1\n'.repeat(100_000);
    const started = Date.now();
    await assert.rejects(tokenizers.tokenize(long, 'Python'), (e: Error) => e instanceof TooLongError && /too long to compare/.test(e.message) && !e.message.includes('\n'));
    assert.throws(() => lexicalTokens(long, 'Perl'), TooLongError);
    assert.ok(Date.now() - started < 2000);
  });

  it('tokenizes minified code, binary text and code in the wrong language without throwing', async () => {
    const minified = `function a(b){${'var c=b+1;if(c>2){b=c}else{b=c*2};'.repeat(400)}return b}`;
    assert.ok((await kinds(minified, 'JavaScript')).length > 4000);
    const binary = String.fromCharCode(...Array.from({ length: 3000 }, (_, i) => (i * 7919) % 65536));
    for (const language of ['Python', 'Haskell', 'klingon']) assert.ok(Array.isArray(await kinds(binary, language)));
    assert.ok((await kinds('SELECT * FROM t WHERE', 'Ruby')).length > 0);
  });

  it('says in one line when a grammar cannot be loaded, and loads it when it can again', async () => {
    let fail = true;
    const flaky = new Grammars(async (file) => {
      if (fail && file.includes('python')) throw new Error('ENOENT: no such file');
      return nodeGrammarFiles()(file);
    });
    await assert.rejects(flaky.tokens('x = 1', 'Python'), (e: Error) => e instanceof GrammarError && e.message === 'could not load the Python grammar (ENOENT: no such file)');
    fail = false;
    assert.equal((await flaky.tokens('x = 1', 'Python')).length, 3);
  });

  it('finds the function around a line', async () => {
    const text = 'import os\n\ndef first():\n    return 1\n\ndef second(a):\n    if a:\n        return 2\n    return 3\n';
    assert.deepEqual(await grammars.functionAround(text, 'Python', 7), [5, 8]);
    assert.equal(await grammars.functionAround(text, 'Python', 0), undefined);
  });
});

describe('similarity: fingerprints', () => {
  it('finds a renamed, reformatted copy alike, and another function not', async () => {
    const prints = async (text: string, language: string) => fingerprint((await tokenizers.tokenize(text, language)).tokens).hashes;
    for (const language of SERVICE_LANGUAGES) {
      const [a, b] = PAIRS[language];
      assert.equal(similarity(await prints(a, language), await prints(b, language)), 1, language);
    }
    const other = 'def parse(line):\n    key, _, value = line.partition("=")\n    return key.strip(), value.strip()\n';
    assert.ok(similarity(await prints(PAIRS.Python[0], 'Python'), await prints(other, 'Python')) < 0.2);
  });

  it('makes no fingerprint of fewer tokens than a k-gram', async () => {
    assert.equal(fingerprint((await tokenizers.tokenize('x = 1', 'Python')).tokens).hashes.length, 0);
  });
});

let nextId = 1;
function code(language: string, text: string, refactors: Array<Partial<Refactor>> = []): Code {
  const id = nextId++;
  return aCode({
    id, title: `code ${id}`, language, permalink: '', code: text, createdAt: new Date(Date.UTC(2008, 0, id)), userId: 1,
    refactors: refactors.map((r) => aRefactor({ id: nextId++, codeId: id, language, code: 'pass\n', userId: 2, userName: 'Bo Chen', ...r })),
  });
}

describe('similarity: the index of fingerprints', () => {
  it('ranks the catalog code a query was made from first, in its language only, and leaves unrelated code out', async () => {
    const search = CodeSearch.empty();
    const codes = SERVICE_LANGUAGES.map((l) => code(l, PAIRS[l][0]));
    const unrelated = code('Python', 'def parse(line):\n    key, _, value = line.partition("=")\n    return key.strip(), value.strip()\n');
    search.addCodes([...codes, unrelated]);
    const index = new SimilarityIndex();
    assert.equal(await index.update(search, tokenizers), codes.length + 1);
    for (const [i, language] of SERVICE_LANGUAGES.entries()) {
      const query = fingerprint((await tokenizers.tokenize(PAIRS[language][1], language)).tokens);
      const found = index.query(query, language);
      assert.deepEqual(found.map((m) => m.codeId), [codes[i].id], language);
      assert.equal(found[0].by, hasGrammar(language) ? 'tree' : 'lexical');
    }
  });

  it('matches a refactoring too, and says which of the code\'s texts was alike', async () => {
    const search = CodeSearch.empty();
    const c = code('Python', 'print(1)\n', [{ code: PAIRS.Python[0] }]);
    search.addCodes([c]);
    const index = new SimilarityIndex();
    await index.update(search, tokenizers);
    const tokens = (await tokenizers.tokenize(PAIRS.Python[1], 'Python')).tokens;
    const [found] = index.query(fingerprint(tokens), 'Python');
    assert.deepEqual([found.codeId, found.refactorId], [c.id, c.refactors![0].id]);
  });

  it('leaves out a text too long to compare, and finds its code by the others', async () => {
    // A service takes a refactoring of more lines than are compared: 60,000 characters, any number of lines.
    const search = CodeSearch.empty();
    const long = `${PAIRS.Python[0]}${'# more\n'.repeat(MAX_COMPARED_LINES)}`;
    const c = code('Python', PAIRS.Python[0], [{ code: long }]);
    const onlyLong = code('Python', long);
    search.addCodes([c, onlyLong]);
    const index = new SimilarityIndex();
    assert.equal(await index.update(search, tokenizers), 2);
    const tokens = (await tokenizers.tokenize(PAIRS.Python[1], 'Python')).tokens;
    assert.deepEqual(index.query(fingerprint(tokens), 'Python').map((m) => [m.codeId, m.refactorId]), [[c.id, 0]]);
  });

  it('says which lines of the query are alike, from the first token that matched to the last', async () => {
    const query = 'import sys\n\n' + PAIRS.Python[1] + '\nprint(sys.argv)\n';
    const tokens = (await tokenizers.tokenize(query, 'Python')).tokens;
    const theirs = (await tokenizers.tokenize(PAIRS.Python[0], 'Python')).tokens;
    const span = coveredSpan(tokens, theirs)!;
    assert.deepEqual([tokens[span[0]].line, tokens[span[1]].line], [2, 8], 'the function (its comment line included), not the import or the print');
    assert.equal(coveredSpan(tokens, (await tokenizers.tokenize('x = 1\n', 'Python')).tokens), undefined);
  });

  it('reads back what it saved, and fingerprints only what changed since', async () => {
    const search = CodeSearch.empty();
    const a = code('Ruby', PAIRS.Ruby[0]);
    search.addCodes([a]);
    const index = new SimilarityIndex();
    await index.update(search, tokenizers);
    const read = SimilarityIndex.fromJSON(index.toJSON());
    assert.equal(read.size, 1);
    const query = fingerprint((await tokenizers.tokenize(PAIRS.Ruby[1], 'Ruby')).tokens);
    assert.deepEqual(read.query(query, 'ruby'), index.query(query, 'Ruby'));
    assert.equal(await read.update(search, tokenizers), 0, 'nothing changed');
    const refactor = aRefactor({ id: nextId++, codeId: a.id, code: PAIRS.Ruby[1], rating: 5, ratingsCount: 1, userName: 'x' });
    search.addCodes([{ ...a, refactors: [refactor] }]);
    assert.equal(await read.update(search, tokenizers), 1, 'a new refactoring is fingerprinted');
  });

  it('reads back short texts of more kinds than a byte counts', async () => {
    // Signs no tokenizer knows are kinds of their own: eight short codes of 40 each use 320 kinds.
    const search = CodeSearch.empty();
    const codes = [...Array(8).keys()].map((n) => code('Perl', [...Array(40).keys()].map((i) => `$a${String.fromCodePoint(0x2200 + 40 * n + i)}`).join(' ')));
    search.addCodes(codes);
    const index = new SimilarityIndex();
    await index.update(search, tokenizers);
    const saved = JSON.parse(index.toJSON()) as { kinds: number[] };
    assert.ok(saved.kinds.length > 256, `${saved.kinds.length} kinds kept`);
    const read = SimilarityIndex.fromJSON(index.toJSON());
    for (const c of codes) {
      const query = fingerprint((await tokenizers.tokenize(c.code, 'Perl')).tokens);
      assert.deepEqual(read.query(query, 'Perl').map((m) => [m.codeId, m.similarity]), [[c.id, 1]]);
    }
  });

  it('refuses saved fingerprints that are not its own, and makes again those made another way', () => {
    // Made with this format, K and W, so damaged rather than made another way.
    const saved = (kinds: string, part: string, anchors = ''): string =>
      `{"format":3,"k":${K},"w":${W},"tokens":1,"kinds":${kinds},"codes":[[1,"Ruby","0:1",1,[${part}]${anchors}]]}`;
    const tenKinds = JSON.stringify([...Array(10).keys()]);
    for (const bad of ['', '{', '[]', saved('[]', '[0,"!!"]'), saved('[]', '[0,"AgAAAAEAAAA="]'), saved('"x"', '[0,"AQAAAAIAAAA="]'),
      saved('[-1]', '[0,"AQAAAAIAAAA="]'),
      // A short text's kinds: not base64, a place past the table, fewer than K kinds, more than a short text has.
      saved(tenKinds, '[0,"!!",1]'), saved(tenKinds, `[0,"${btoa('\x00\x01\x02\x03\x04\x05\x06\x0a')}",1]`),
      saved(tenKinds, `[0,"${btoa('\x00\x01\x02')}",1]`), saved(tenKinds, `[0,"${btoa('\x01'.repeat(200))}",1]`), saved(tenKinds, '[0,"AAECAwQFBgc=",2]'),
      // A code's anchors: not base64, not hashes in ascending order, empty (left out instead), one more field.
      saved(tenKinds, '[0,"AAECAwQFBgc=",1]', ',"!!"'), saved(tenKinds, '[0,"AAECAwQFBgc=",1]', ',"AgAAAAEAAAA="'),
      saved(tenKinds, '[0,"AAECAwQFBgc=",1]', ',""'), saved(tenKinds, '[0,"AAECAwQFBgc=",1]', ',"AQAAAAIAAAA=",0')]) {
      assert.throws(() => SimilarityIndex.fromJSON(bad), SimilarityIndexError, bad);
    }
    assert.equal(SimilarityIndex.fromJSON(saved(tenKinds, '[0,"AAECAwQFBgc=",1]')).size, 1, 'eight kinds of the table: a short text');
    assert.equal(SimilarityIndex.fromJSON(saved(tenKinds, '[0,"AAECAwQFBgc=",1]', ',"AQAAAAIAAAA="')).size, 1, 'with its anchors');
    assert.equal(SimilarityIndex.fromJSON('{"format":3,"k":23,"w":17,"tokens":1,"kinds":[],"codes":[]}').size, 0);
    assert.equal(SimilarityIndex.fromJSON(`{"format":2,"k":${K},"w":${W},"tokens":1,"kinds":[],"codes":[[1,"Ruby","0:1",1,[[0,"AQAAAAIAAAA="]]]]}`).size, 0,
      'fingerprints of the format before codes kept their anchors are made again');
    assert.equal(SimilarityIndex.fromJSON(`{"format":1,"k":${K},"w":${W},"tokens":1,"codes":[[1,"Ruby","0:1",1,[[0,"AQAAAAIAAAA="]]]]}`).size, 0,
      'fingerprints of the format before short texts kept their kinds are made again');
  });

  it('finds each of many short codes alike in shape first, from a renamed copy with a line added', async () => {
    // Short functions of three statements from a handful of shapes: a line added spoils most of a
    // short code's fingerprints, and what is left is as near to the codes one statement away.
    const shapes = ['{a} = {b} + 1', 'if {a}:\n        return {b}', 'for {a} in {b}:\n        {c}.append({a})', '{a} = {b}.get({c})', '{a} += 1',
      'print({a}, {b})', '{c}[{a}] = {b}', 'del {a}[{b}]'];
    const names = [['x', 'y', 'z'], ['count', 'items', 'seen'], ['p', 'q', 'r']];
    const fill = (shape: string, [a, b, c]: string[]): string => shape.replace(/\{a\}/g, a).replace(/\{b\}/g, b).replace(/\{c\}/g, c);
    const search = CodeSearch.empty();
    const made: Array<{ code: Code; body: number[] }> = [];
    let seed = 7;
    const next = (n: number): number => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
    for (const i of shapes.keys()) {
      for (let j = 0; j < 5; j++) {
        const body = [i, next(shapes.length), next(shapes.length)];
        made.push({ code: code('Python', `def f${i}_${j}(x, y, z):\n${body.map((s) => `    ${fill(shapes[s], names[0])}`).join('\n')}\n`), body });
      }
    }
    search.addCodes(made.map((m) => m.code));
    const index = new SimilarityIndex();
    await index.update(search, tokenizers);
    let first = 0;
    for (const [n, { code: c, body }] of made.entries()) {
      const lines = body.map((s) => `    ${fill(shapes[s], names[1])}`);
      lines.splice(1 + (n % 3), 0, '    assert count is not None');
      const query = `def renamed(count, items, seen):\n${lines.join('\n')}\n`;
      const found = index.query(fingerprint((await tokenizers.tokenize(query, 'Python')).tokens), 'Python');
      const twin = made.find((m) => m !== made[n] && m.body.join() === body.join());
      if (found[0]?.codeId === c.id || found[0]?.codeId === twin?.code.id) first++;
    }
    assert.equal(first, made.length);
  });

  it('finds a short code from a renamed copy whose changed line is most of it, by the strings and members it kept', async () => {
    // Short methods of one shape, a docstring and two statements, each statement one of a few shapes
    // using a field of its own: a copy with one statement replaced is shaped like every code with the
    // other statement, and only what renaming leaves (the docstring, the field) says which it was.
    const shapes = ['self.{f} = {v}', 'return self.{f}.get({v})', 'self.{f}.append({v})', 'print(self.{f}, {v})', 'del self.{f}[{v}]'];
    const things = ['parcel', 'ledger', 'window', 'socket', 'cookie', 'printer', 'thread', 'archive'];
    const line = (shape: number, field: string, v: string): string => `    ${shapes[shape].replace('{f}', field).replace('{v}', v)}`;
    const search = CodeSearch.empty();
    const made: Array<{ code: Code; doc: string; kept: string }> = [];
    let seed = 11;
    const next = (n: number): number => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
    for (const [i, thing] of things.entries()) {
      for (let j = 0; j < 4; j++) {
        const doc = `"""Keeps the ${thing}'s ${['size', 'owner', 'state', 'name'][j]} up to date."""`;
        const [a, b] = [next(shapes.length), next(shapes.length)];
        const fields = [`_${thing}_${j}`, `${thing}s_${j}`];
        const text = `def m${i}_${j}(self, value):\n    ${doc}\n${line(a, fields[0], 'value')}\n${line(b, fields[1], 'value')}\n`;
        made.push({ code: code('Python', text), doc, kept: j % 2 === 0 ? line(a, fields[0], 'item') : line(b, fields[1], 'item') });
      }
    }
    search.addCodes(made.map((m) => m.code));
    const index = new SimilarityIndex();
    await index.update(search, tokenizers);
    const read = SimilarityIndex.fromJSON(index.toJSON());
    for (const [n, { code: c, doc, kept }] of made.entries()) {
      const lines = n % 2 === 0 ? [kept, '    item = debug(item)'] : ['    item = debug(item)', kept];
      const query = `def renamed(obj, item):\n    ${doc}\n${lines.join('\n').replace(/self/g, 'obj')}\n`;
      const printed = fingerprint((await tokenizers.tokenize(query, 'Python')).tokens);
      assert.equal(index.query(printed, 'Python')[0]?.codeId, c.id, query);
      assert.equal(read.query(printed, 'Python')[0]?.codeId, c.id, `read back: ${query}`);
    }
  });
});

describe('similarity: the catalog around it', () => {
  it('tells a file\'s language by its extension, TypeScript as JavaScript', () => {
    assert.equal(languageOfFile('src/a.TS'), 'JavaScript');
    assert.equal(languageOfFile('lib/x.rb'), 'Ruby');
    assert.equal(languageOfFile('notes.txt'), undefined);
    assert.equal(languageOfFile('dir.py/README'), undefined);
  });

  it('tells each language by the extensions of the languages table, the one a virtual document gets included', () => {
    // One row a language (src/core/languages.ts): a file of every service language is that language,
    // and TypeScript is JavaScript by its files as by its editors' language ids.
    for (const language of SERVICE_LANGUAGES) {
      assert.equal(languageOfFile(`a.${fileExtensionOf(language)}`), language, language);
      assert.equal(matchingServiceLanguage(toVsCodeLanguageId(language)), toVsCodeLanguageId(language) === 'plaintext' ? undefined : language, language);
    }
    for (const [file, id] of [['a.ts', 'typescript'], ['b.tsx', 'typescriptreact'], ['c.mts', 'typescript'], ['d.jsx', 'javascriptreact']]) {
      assert.equal(languageOfFile(file), 'JavaScript', file);
      assert.equal(matchingServiceLanguage(id), 'JavaScript', id);
    }
    assert.equal(toServiceLanguage('typescript'), undefined, 'following the editor, TypeScript is no language of the service');
    assert.equal(matchingServiceLanguage('markdown'), undefined);
  });

  it('offers the best rated refactoring, more votes first among equals, else the newest (the code view\'s order)', () => {
    const r = (id: number, rating: number | null, ratingsCount: number | null): Refactor => aRefactor({ id, code: '', rating, ratingsCount });
    assert.equal(bestRefactor([r(1, 4, 1), r(2, 5, 1), r(3, 5, 2), r(4, null, null)])?.id, 3);
    assert.equal(bestRefactor([r(1, null, null), r(2, null, null)])?.id, 2);
    assert.equal(bestRefactor([]), undefined);
  });
});
