// The HTML pages of the same resources as the XML: what Open in Browser shows. Server-rendered, no
// scripts, readable without JavaScript. Every value goes through one escaper, by construction: pages
// are built with the `html` tag, which escapes each interpolation unless it is already SafeHtml.

import { PAGE_SIZE } from '../../core/model';
import { authorOf, titleOf } from '../../core/names';
import { isHttpUrl } from '../../core/httpUrl';
import { languageSlug } from '../../core/languages';
import type { DatasetCode, DatasetRefactor, DatasetUser, Timestamp } from '../catalog/dataset';
import { pathOf } from '../routes';
import type { ListedCode, ListedRefactor, Page, Summary } from '../store';
import { plural } from '../../core/plural';

/** The one HTML escaper: text and double- or single-quoted attribute values alike. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

type Interpolation = string | number | SafeHtml | readonly SafeHtml[] | undefined;

function html(strings: TemplateStringsArray, ...values: Interpolation[]): SafeHtml {
  let out = strings[0];
  values.forEach((v, i) => {
    if (v instanceof SafeHtml) out += v.value;
    else if (Array.isArray(v)) out += v.map((h: SafeHtml) => h.value).join('');
    else if (v !== undefined) out += escapeHtml(String(v));
    out += strings[i + 1];
  });
  return new SafeHtml(out);
}

const STYLE = `
body { font: 15px/1.5 system-ui, sans-serif; max-width: 60rem; margin: 0 auto; padding: 0 1rem 2rem; color: #222; background: #fff; }
header { border-bottom: 1px solid #ddd; padding: .5rem 0; } header a { margin-right: 1rem; }
a { color: #0550ae; } .meta { color: #555; font-size: .9em; } ol.items { padding-left: 1.5rem; } ol.items li { margin: .4rem 0; }
pre { background: #f6f8fa; border: 1px solid #ddd; padding: .75rem; overflow-x: auto; }
.comment { white-space: pre-wrap; } article { border-top: 1px solid #ddd; margin-top: 1.5rem; }
.pager a { margin-right: 1rem; } ul.tags { list-style: none; padding: 0; } ul.tags li { display: inline; margin-right: .75rem; }
@media (prefers-color-scheme: dark) { body { color: #ddd; background: #1e1e1e; } a { color: #6cb6ff; } .meta { color: #aaa; } pre { background: #2a2a2a; border-color: #444; } }
`;

/** Where each resource's page is (routes.ts's table); the XML form is the same path plus `.xml`. */
export const pagePath = {
  code: (c: { id: number; permalink: string }) => pathOf('code', { id: `${c.id}-${c.permalink}` }),
  recent: (language?: string) => pathOf('codes', { listing: 'recent', language: slug(language) }),
  popular: (language?: string) => pathOf('codes', { listing: 'popular', language: slug(language) }),
  tag: (tag: string, language?: string) => pathOf('tag', { tag, language: slug(language) }),
  refactor: (r: { codeId: number; id: number }) => pathOf('refactor', r),
  refactorings: (language?: string) => pathOf('refactors', { language: slug(language) }),
  user: (u: { id: number }) => pathOf('user', u),
};

/** The original service's own link form for a language: `cs`, `cpp`, `vb`, other names in lower case. */
function slug(language: string | undefined): string | undefined {
  return language ? languageSlug(language) : undefined;
}

function layout(title: string, main: SafeHtml, xmlPath?: string): string {
  return html`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
${xmlPath ? html`<link rel="alternate" type="application/xml" href="${xmlPath}">` : undefined}
<style>${new SafeHtml(STYLE)}</style>
</head>
<body>
<header><nav><a href="/">Index</a><a href="${pagePath.recent()}">Recent codes</a><a href="${pagePath.popular()}">Popular codes</a><a href="${pagePath.refactorings()}">Recent refactorings</a></nav></header>
<main>
<h1>${title}</h1>
${main}
</main>
</body>
</html>
`.value;
}

/** A link only for http(s) URLs: a catalog's `javascript:` website must stay plain text. */
function externalLink(url: string, text: string): SafeHtml {
  return isHttpUrl(url) ? html`<a href="${url}" rel="nofollow noopener">${text}</a>` : html`${text}`;
}

function time(t: Timestamp): SafeHtml {
  return html`<time datetime="${t.text}">${t.text.slice(0, 10)} ${t.text.slice(11, 16)} ${t.text.slice(19)}</time>`;
}

function pager(path: string, page: number, hasNext: boolean): SafeHtml {
  if (page === 1 && !hasNext) return html``;
  return html`<nav class="pager">${page > 1 ? html`<a href="${page === 2 ? path : `${path}?page=${page - 1}`}" rel="prev">Previous page</a>` : undefined}<span>Page ${page}</span>${hasNext ? html` <a href="${path}?page=${page + 1}" rel="next">Next page</a>` : undefined}</nav>`;
}

export interface ListPage<T> extends Page<T> {
  readonly title: string;
  /** This page's path without `.xml` and without `?page`. */
  readonly path: string;
  readonly page: number;
}

export function renderCodeListHtml(p: ListPage<ListedCode>): string {
  const { items, hasNext } = p;
  const rows = items.map(
    (c) => html`<li><a href="${pagePath.code(c)}">${c.title}</a>
<span class="meta">by ${c.user.name} · <a href="${pagePath.recent(c.language)}">${c.language}</a> · ${time(c.createdAt)} · ${plural(c.refactorsCount, 'refactoring', 'refactorings')}</span></li>`,
  );
  const main = items.length === 0 ? html`<p>No codes here.</p>` : html`<ol class="items" start="${(p.page - 1) * PAGE_SIZE + 1}">${rows}</ol>`;
  return layout(p.title, html`${main}${pager(p.path, p.page, hasNext)}`, `${p.path}.xml${p.page > 1 ? `?page=${p.page}` : ''}`);
}

export function renderRefactorListHtml(p: ListPage<ListedRefactor>): string {
  const { items, hasNext } = p;
  const rows = items.map((r) => {
    const code = r.of;
    return html`<li><a href="${pagePath.code(code)}#refactor-${r.id}">${r.title || `Refactoring of ${code.title}`}</a>
<span class="meta">by ${authorOf(r)} · ${r.language} · ${time(r.createdAt)} · rated ${r.rating} (${plural(r.ratingsCount, 'vote', 'votes')})</span></li>`;
  });
  const main = items.length === 0 ? html`<p>No refactorings here.</p>` : html`<ol class="items" start="${(p.page - 1) * PAGE_SIZE + 1}">${rows}</ol>`;
  return layout(p.title, html`${main}${pager(p.path, p.page, hasNext)}`, `${p.path}.xml${p.page > 1 ? `?page=${p.page}` : ''}`);
}

function refactorArticle(r: DatasetRefactor): SafeHtml {
  return html`<article id="refactor-${r.id}">
<h3>${titleOf(r)}</h3>
<p class="meta">by ${r.userWebsite ? externalLink(r.userWebsite, authorOf(r)) : authorOf(r)}${r.userId === null ? ' (anonymous)' : ''} · ${time(r.createdAt)} · rated ${r.rating} (${plural(r.ratingsCount, 'vote', 'votes')})</p>
${r.comment ? html`<div class="comment">${r.comment}</div>` : undefined}
<pre><code class="language-${r.language.toLowerCase()}">${r.code}</code></pre>
</article>`;
}

export function renderCodeHtml(c: DatasetCode): string {
  const author = c.user.website ? externalLink(c.user.website, c.user.name) : html`${c.user.name}`;
  const tags = c.tags.map((t) => html` <a href="${pagePath.tag(t)}" rel="tag">${t}</a>`);
  const main = html`<p class="meta">by ${author} · <a href="${pagePath.recent(c.language)}">${c.language}</a> · posted ${time(c.createdAt)}${c.updatedAt.text !== c.createdAt.text ? html` · updated ${time(c.updatedAt)}` : undefined}</p>
${tags.length > 0 ? html`<p class="meta">Tags:${tags}</p>` : undefined}
${c.comment ? html`<div class="comment">${c.comment}</div>` : undefined}
<pre><code class="language-${c.language.toLowerCase()}">${c.code}</code></pre>
${c.trackbackUrl ? html`<p class="meta">Trackback: ${externalLink(c.trackbackUrl, c.trackbackUrl)}</p>` : undefined}
<h2>${plural(c.refactorsCount, 'refactoring', 'refactorings')}</h2>
${c.refactors.length === 0 ? html`<p>No refactorings yet.</p>` : c.refactors.map(refactorArticle)}`;
  return layout(c.title, main, `${pagePath.code(c)}.xml`);
}

/** One refactoring's page, where the write API's Location points. */
export function renderRefactorHtml(r: ListedRefactor): string {
  const main = html`<p class="meta">A refactoring of <a href="${pagePath.code(r.of)}">${r.of.title}</a></p>
${refactorArticle(r)}`;
  return layout(r.title || `Refactoring of ${r.of.title}`, main, `${pagePath.refactor(r)}.xml`);
}

/** One person's page; `.xml` gives the User element a single code's author is named by. */
export function renderUserHtml(u: DatasetUser): string {
  const main = html`<p class="meta">Rated ${u.rating} · ${plural(u.refactorsCount, 'refactoring', 'refactorings')}</p>
${u.website ? html`<p>Website: ${externalLink(u.website, u.website)}</p>` : undefined}
${u.identityUrl ? html`<p>Identity: ${externalLink(u.identityUrl, u.identityUrl)}</p>` : undefined}`;
  return layout(u.name, main, `${pagePath.user(u)}.xml`);
}

export function renderIndexHtml(catalog: Summary): string {
  const languages = catalog.languages.map(
    (l) => html`<li>${l}: <a href="${pagePath.recent(l)}">recent</a>, <a href="${pagePath.popular(l)}">popular</a>, <a href="${pagePath.refactorings(l)}">refactorings</a></li>`,
  );
  const tags = [...catalog.tags]
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((t) => html`<li><a href="${pagePath.tag(t.name)}">${t.name}</a> (${t.count})</li>`);
  const main = html`<p>${plural(catalog.codes, 'code', 'codes')} and ${plural(catalog.refactors, 'refactoring', 'refactorings')}. Append <code>.xml</code> to any page's path for its XML.</p>
<ul>
<li><a href="${pagePath.recent()}">Recent codes</a></li>
<li><a href="${pagePath.popular()}">Popular codes</a></li>
<li><a href="${pagePath.refactorings()}">Recent refactorings</a></li>
</ul>
<h2>Languages</h2>
<ul>${languages}</ul>
<h2>Tags</h2>
<ul class="tags">${tags}</ul>`;
  return layout('Code sharing and refactoring', main);
}

export function renderErrorHtml(status: number, message: string): string {
  return layout(`${status}: ${message}`, html`<p><a href="/">Back to the index</a></p>`);
}
