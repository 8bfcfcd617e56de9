// The code view webview's HTML shell and the data it is sent. The shell carries no data from the
// service: the code arrives later in a `show` message and is rendered with textContent. Every value
// that is interpolated here anyway (title, URIs, nonce) goes through `escapeHtml`.
import type { Code, Refactor } from '../../../core/model';
import type { CodeViewModel, RefactorViewModel } from '../../../protocol/codeView';
import { highlightJsLanguage } from '../../../core/languages';
import { randomBase64url } from '../../../core/random';

export interface CodeViewHtmlOptions {
  /** `webview.cspSource`. */
  cspSource: string;
  /** `asWebviewUri` of dist/webview.js. */
  scriptUri: string;
  /** `asWebviewUri` of each stylesheet (media/codeView.css). */
  styleUris: string[];
  /** A fresh `createNonce()`; omitted, one is made for this render. */
  nonce?: string;
  /** The panel's title, shown until the script runs. */
  title: string;
  /** VS Code's display language (`vscode.env.language`): the page's `lang`, and the locale of its dates. */
  language: string;
  /** The extension's translations (`vscode.l10n.bundle`), which the script's words are looked up in. */
  l10nBundle?: Record<string, string>;
  /** "Loading…" in the display language, shown until the script runs. */
  loading: string;
}

const HTML_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '`': '&#96;',
};

/** The one escape helper: safe inside text and inside single- or double-quoted attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"'`]/g, (c) => HTML_ESCAPES[c] ?? c);
}

/**
 * A script nonce from the OS's CSPRNG through Web Crypto (never Math.random; available in Node and in
 * the browser's extension host alike), 32 bytes, base64url.
 */
export function createNonce(): string {
  return randomBase64url(32);
}

/** The CSP for the code view, in one place: nothing but our own styles/fonts/images and one script. */
/**
 * What the code view's webview may do: run its own script; no forms, no command links; read only the
 * extension's `media/` and `dist/` folders. Paths are the extension's folder names, made into URIs by
 * the panel.
 */
export const CODE_VIEW_WEBVIEW_OPTIONS = {
  enableScripts: true,
  enableForms: false,
  enableCommandUris: false,
  localResourceFolders: ['media', 'dist'],
} as const;

export function codeViewCsp(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `style-src ${cspSource}`,
    `font-src ${cspSource}`,
    // The view shows no pictures of its own, and none from strangers (a remote image would tell its
    // host who reads the code): only the extension's own files.
    `img-src ${cspSource}`,
    `script-src 'nonce-${nonce}'`,
  ].join('; ');
}

export function renderCodeViewHtml(opts: CodeViewHtmlOptions): string {
  const nonce = opts.nonce ?? createNonce();
  const e = escapeHtml;
  const styles = opts.styleUris.map((uri) => `<link rel="stylesheet" href="${e(uri)}">`).join('\n  ');
  return `<!DOCTYPE html>
<html lang="${e(opts.language)}">
<head>
  <meta http-equiv="Content-Security-Policy" content="${e(codeViewCsp(opts.cspSource, nonce))}">
  <meta charset="UTF-8">
  <meta name="viewport" content="width=device-width, initial-scale=1.0">
  ${styles}
  <title>${e(opts.title)}</title>
</head>
<body data-locale="${e(opts.language)}" data-l10n="${e(JSON.stringify(opts.l10nBundle ?? {}))}">
  <main id="root" aria-busy="true"><p class="status" role="status">${e(opts.loading)}</p></main>
  <script nonce="${e(nonce)}" src="${e(opts.scriptUri)}"></script>
</body>
</html>
`;
}

function isoOrNull(d: Date | null): string | null {
  return d && !Number.isNaN(d.getTime()) ? d.toISOString() : null;
}

// The protocol rejects a whole `show` whose counts are not non-negative integers; a strange value from
// the service must cost that one field, not the view.
function countOrNull(n: number | null): number | null {
  return n !== null && Number.isSafeInteger(n) && n >= 0 ? n : null;
}

function finiteOrNull(n: number | null): number | null {
  return n !== null && Number.isFinite(n) ? n : null;
}

function refactorViewModel(r: Refactor): RefactorViewModel {
  return {
    id: r.id,
    codeId: r.codeId,
    title: r.title,
    language: r.language,
    highlightLanguage: highlightJsLanguage(r.language) ?? '',
    code: r.code,
    comment: r.comment,
    createdAt: isoOrNull(r.createdAt),
    rating: finiteOrNull(r.rating),
    ratingsCount: countOrNull(r.ratingsCount),
    userId: countOrNull(r.userId),
    userName: r.userName || r.user?.name || '',
    userWebsite: r.userWebsite || r.user?.website || '',
  };
}

/** What the webview is sent for a code (from `getCode`) and its page URL (`pageUrl` of the client). */
export function buildCodeViewModel(code: Code, pageUrl: string): CodeViewModel {
  return {
    id: code.id,
    title: code.title,
    language: code.language,
    highlightLanguage: highlightJsLanguage(code.language) ?? '',
    permalink: code.permalink,
    code: code.code,
    comment: code.comment,
    createdAt: isoOrNull(code.createdAt),
    updatedAt: isoOrNull(code.updatedAt),
    refactorsCount: countOrNull(code.refactorsCount),
    userId: countOrNull(code.userId),
    userName: code.user?.name ?? '',
    userWebsite: code.user?.website ?? '',
    pageUrl,
    refactors: (code.refactors ?? []).map(refactorViewModel),
  };
}
