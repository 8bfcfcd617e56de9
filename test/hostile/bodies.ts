// What the hostile server says when it does answer: XML rendered by the reference service's own
// renderer from small catalogs built here (hostile text, snippet syntax, huge code, huge lists), and
// the few bodies that are wrong on purpose. No vscode import: the extension's tests reuse these.

import { parseDataset, type Dataset } from '../../src/server/catalog/dataset';
import { parseTarget } from '../../src/server/routes';
import { renderCodeListXml, renderCodeXml, renderRefactorListXml } from '../../src/server/render/xmlRender';

/** Markup and link schemes a page or a webview must show as text, quotes of both kinds included. */
export const MARKUP = `<script>alert(1)</script><img src=x onerror="alert(2)"> javascript:alert(3) "double" 'single'`;

/** Terminal control sequences: retitle the window, clear the screen, colour; C0 and C1 forms. */
export const TERMINAL_CONTROLS = '\u001b]0;pwned\u0007\u001b[2J\u001b[31m\u009b1m';

/** Text that a snippet engine or a template literal would expand if it were not taken literally. */
export const SNIPPET_CODE = 'echo "$1" and ${TM_FILENAME} and $0\nlet s = `${user.name}` + `\\${not}`;\nprintf \'%s\' "${2:default}"\n';

/** The part of the URL after the case segment, as the service would see it. */
export type Resource = { kind: 'codes' } | { kind: 'refactors' } | { kind: 'code'; id: number };

export function resourceOf(path: string): Resource | undefined {
  const target = parseTarget(path);
  if (!target.ok || target.format !== 'xml') return undefined;
  const { route } = target;
  if (route.kind === 'codes' || route.kind === 'tag') return { kind: 'codes' };
  if (route.kind === 'refactors') return { kind: 'refactors' };
  if (route.kind === 'code') return { kind: 'code', id: route.id };
  return undefined;
}

/** The resource from a catalog, every item of a list on one page (the hostile cases want big lists). */
export function render(catalog: Dataset, r: Resource): string | undefined {
  if (r.kind === 'codes') return renderCodeListXml(catalog.recentCodes.all);
  if (r.kind === 'refactors') return renderRefactorListXml(catalog.recentRefactors.all);
  const code = catalog.codes.get(r.id);
  return code && renderCodeXml(code);
}

const WHEN = '2008-03-14T09:26:53+01:00';

interface CodeSpec {
  id: number;
  title?: string;
  code: string;
  comment?: string;
  trackbackUrl?: string;
  tags?: string[];
}

/** A catalog of one user and the given codes, each with one anonymous and one registered refactoring. */
export function catalogOf(codes: readonly CodeSpec[], user: { name: string; website: string; identityUrl: string }): Dataset {
  const refactors = codes.flatMap((c) => [
    { id: c.id * 2 - 1, codeId: c.id, userId: null, userName: user.name, userWebsite: user.website, title: c.title ?? '',
      rating: 3, ratingsCount: 1, createdAt: WHEN, comment: c.comment ?? '', code: c.code },
    { id: c.id * 2, codeId: c.id, userId: 1, title: c.title ?? '', rating: 4, ratingsCount: 2, createdAt: WHEN,
      comment: c.comment ?? '', code: c.code },
  ]);
  return parseDataset({
    users: [{ id: 1, name: user.name, identityUrl: user.identityUrl, rating: 4.5, website: user.website }],
    codes: codes.map((c) => ({
      id: c.id, title: c.title ?? `Code ${c.id}`, language: 'JavaScript', userId: 1, createdAt: WHEN, updatedAt: WHEN,
      comment: c.comment ?? '', trackbackUrl: c.trackbackUrl ?? '', tags: c.tags ?? [], code: c.code,
    })),
    refactors,
  }, 'hostile catalog');
}

/** Every text field holds MARKUP; every URL field is a `javascript:` URL. */
export function markupCatalogJson(): unknown {
  return {
    users: [{ id: 1, name: `Mallory ${MARKUP}`, identityUrl: 'javascript:alert(4)', rating: 1.5, website: 'javascript:alert(5)' }],
    codes: [{
      id: 1, title: `Title ${MARKUP}`, language: 'JavaScript', userId: 1, createdAt: WHEN, updatedAt: WHEN,
      comment: `Comment ${MARKUP}`, trackbackUrl: 'javascript:alert(6)', tags: [`tag"><svg onload=alert(7)>`],
      code: `const s = '${MARKUP}';\n`,
    }],
    refactors: [
      { id: 1, codeId: 1, userId: null, userName: `Anon ${MARKUP}`, userWebsite: 'javascript:alert(8)',
        title: `Refactor ${MARKUP}`, rating: 1, ratingsCount: 1, createdAt: WHEN, comment: `Why ${MARKUP}`, code: `// ${MARKUP}\n` },
      { id: 2, codeId: 1, userId: 1, title: `Second ${MARKUP}`, rating: 2, ratingsCount: 1, createdAt: WHEN,
        comment: MARKUP, code: MARKUP },
    ],
  };
}

export function markupCatalog(): Dataset {
  return parseDataset(markupCatalogJson(), 'markup catalog');
}

/**
 * The markup catalog's XML with raw terminal controls put before every `<script>` (so into every text
 * field). XML 1.0 has no way to carry C0 controls; a careless server sends them raw anyway.
 */
export function withTerminalControls(xml: string): string {
  return xml.split('&lt;script&gt;').join(`${TERMINAL_CONTROLS}&lt;script&gt;`);
}

const PLAIN_USER = { name: 'Ana', website: 'https://ana.example.org', identityUrl: 'https://ana.example.org/' };

export function snippetCatalog(): Dataset {
  return catalogOf([{ id: 1, title: 'Snippet $1 ${TM_FILENAME} `x`', code: SNIPPET_CODE, comment: 'Uses `$1`' }], PLAIN_USER);
}

/** One code whose text is a single line of `bytes` ASCII characters. */
export function longLineCatalog(bytes = 1024 * 1024): Dataset {
  // Valid JavaScript (the catalog's language), so VS Code's own checker reports nothing for it.
  const line = 'x = x + 1; '.repeat(Math.ceil(bytes / 11)).slice(0, bytes);
  return catalogOf([{ id: 1, code: line }], PLAIN_USER);
}

export function manyLinesCatalog(lines = 10_000): Dataset {
  const code = Array.from({ length: lines }, (_, i) => `  line_${i} = compute(${i}); // ${'.'.repeat(i % 40)}`).join('\n') + '\n';
  return catalogOf([{ id: 1, code }], PLAIN_USER);
}

export function manyItemsCatalog(items = 2000): Dataset {
  return catalogOf(Array.from({ length: items }, (_, i) => ({ id: i + 1, code: `print(${i})\n` })), PLAIN_USER);
}

/**
 * A list or code within the size cap whose one item's `<code>` holds 2.4 million `<z/>` elements
 * (9.6 MB) or one element with 800,000 attributes: cheap to send, seconds of work for a parser.
 */
export function markupFlood(root: 'codes' | 'refactors' | 'code', flood: 'elements' | 'attributes'): string {
  const inner = flood === 'elements' ? '<z/>'.repeat(2_400_000) : `<z ${Array.from({ length: 800_000 }, (_, i) => `a${i}=""`).join(' ')}/>`;
  const item = `<id type="integer">1</id><code-id type="integer">1</code-id><code>${inner}</code>`;
  const body = root === 'code' ? `<code>${item}</code>` : `<${root} type="array"><${root.slice(0, -1)}>${item}</${root.slice(0, -1)}></${root}>`;
  return `<?xml version="1.0" encoding="UTF-8"?>\n${body}\n`;
}

/** A login page, as a captive portal or an expired SSO session answers with status 200. */
export const LOGIN_PAGE = `<!DOCTYPE html>
<html><head><title>Sign in</title></head>
<body><form method="post" action="/login"><input name="user"><input name="password" type="password"></form></body></html>
`;

/** A billion-laughs DOCTYPE: 10^9 `lol`s if anything expanded it. */
export function entityBomb(root: string): string {
  const entities = ['<!ENTITY lol0 "lol">'];
  for (let i = 1; i <= 9; i++) entities.push(`<!ENTITY lol${i} "${`&lol${i - 1};`.repeat(10)}">`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE ${root} [\n${entities.join('\n')}\n]>\n`
    + `<${root} type="array"><code><id type="integer">1</id><title>&lol9;</title></code></${root}>\n`;
}

/** Names that would reach Object.prototype or a constructor if a parser used them as plain keys. */
export function withPrototypeKeys(xml: string): string {
  const poison = '<__proto__><polluted type="integer">1</polluted><id>666</id></__proto__>'
    + '<constructor><prototype><polluted>yes</polluted></prototype></constructor>';
  // Inside every item, and once more at the top of the root element.
  return xml
    .replace(/(<code>|<refactor>)(?=\n)/g, `$1${poison}`)
    .replace(/(<(?:codes|refactors|code)(?: type="array")?>)/, `$1<__proto__><polluted>root</polluted></__proto__>`);
}
