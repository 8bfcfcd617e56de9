// The service's languages, one row each: how the service spells the name in lists, the slug its
// URLs use, the VS Code language ids, the highlight.js grammar and the file extension. The one
// table the client, the server, the CLI, the extension and the code view's webview read. Pure (no
// vscode, no node), so it runs under mocha and in the webview. Lookups by a name from the service
// go through a Map: a language called `constructor` or `__proto__` is simply unknown.

/** highlight.js grammars the code view bundles (src/webview/highlight.ts registers exactly these). */
export type HighlighterName =
  | 'ruby' | 'php' | 'javascript' | 'actionscript' | 'java' | 'c' | 'cpp' | 'csharp' | 'vbnet' | 'python'
  | 'perl' | 'lisp' | 'erlang' | 'haskell' | 'bash' | 'delphi';

interface LanguageRow {
  /** As the service spells it in lists. */
  service: string;
  /**
   * The path segment the original service's links used and its router maps back: `cs`, `cpp`, `vb`
   * for the three names with punctuation, every other name in lower case.
   */
  slug: string;
  /** An id VS Code ships built in (microsoft/vscode/extensions), or 'plaintext' where it has none. */
  builtIn: string;
  /** Ids that well-known marketplace extensions register, preferred when installed. */
  contributed: readonly string[];
  /** Further VS Code ids that mean this language, for the reverse mapping only. */
  aliases: readonly string[];
  highlighter: HighlighterName;
  /** The file extension of a virtual document, so VS Code can guess its language too. */
  fileExtension: string;
}

// VS Code ships no grammar for ActionScript, Lisp, Erlang, Haskell or Pascal/Delphi (there is no
// extensions/pascal, extensions/haskell … in microsoft/vscode), and an unknown id makes
// setTextDocumentLanguage throw, so those fall back to plaintext unless an extension provides one.
const ROWS: readonly LanguageRow[] = [
  { service: 'Ruby', slug: 'ruby', builtIn: 'ruby', contributed: [], aliases: [], highlighter: 'ruby', fileExtension: 'rb' },
  { service: 'PHP', slug: 'php', builtIn: 'php', contributed: [], aliases: [], highlighter: 'php', fileExtension: 'php' },
  { service: 'JavaScript', slug: 'javascript', builtIn: 'javascript', contributed: [], aliases: ['javascriptreact'], highlighter: 'javascript', fileExtension: 'js' },
  { service: 'ActionScript', slug: 'actionscript', builtIn: 'plaintext', contributed: ['actionscript'], aliases: [], highlighter: 'actionscript', fileExtension: 'as' },
  { service: 'Java', slug: 'java', builtIn: 'java', contributed: [], aliases: [], highlighter: 'java', fileExtension: 'java' },
  { service: 'C', slug: 'c', builtIn: 'c', contributed: [], aliases: [], highlighter: 'c', fileExtension: 'c' },
  { service: 'C++', slug: 'cpp', builtIn: 'cpp', contributed: [], aliases: ['cuda-cpp'], highlighter: 'cpp', fileExtension: 'cpp' },
  { service: 'C#', slug: 'cs', builtIn: 'csharp', contributed: [], aliases: [], highlighter: 'csharp', fileExtension: 'cs' },
  { service: 'VB.NET', slug: 'vb', builtIn: 'vb', contributed: [], aliases: [], highlighter: 'vbnet', fileExtension: 'vb' },
  { service: 'Python', slug: 'python', builtIn: 'python', contributed: [], aliases: [], highlighter: 'python', fileExtension: 'py' },
  { service: 'Perl', slug: 'perl', builtIn: 'perl', contributed: [], aliases: [], highlighter: 'perl', fileExtension: 'pl' },
  { service: 'Lisp', slug: 'lisp', builtIn: 'plaintext', contributed: ['commonlisp', 'lisp'], aliases: [], highlighter: 'lisp', fileExtension: 'lisp' },
  { service: 'Erlang', slug: 'erlang', builtIn: 'plaintext', contributed: ['erlang'], aliases: [], highlighter: 'erlang', fileExtension: 'erl' },
  { service: 'Haskell', slug: 'haskell', builtIn: 'plaintext', contributed: ['haskell'], aliases: [], highlighter: 'haskell', fileExtension: 'hs' },
  { service: 'Bash', slug: 'bash', builtIn: 'shellscript', contributed: [], aliases: [], highlighter: 'bash', fileExtension: 'sh' },
  { service: 'Delphi', slug: 'delphi', builtIn: 'plaintext', contributed: ['pascal', 'objectpascal', 'delphi'], aliases: [], highlighter: 'delphi', fileExtension: 'pas' },
];

/** The language slug that means every language (`/codes/recent/all.xml`). */
export const ALL_LANGUAGES_SLUG = 'all';

/** The languages the service offers, as it spells them in lists, in its own order. */
export const SERVICE_LANGUAGES: readonly string[] = ROWS.map((r) => r.service);

/** Every highlight.js grammar the code view bundles. */
export const HIGHLIGHTERS: readonly HighlighterName[] = ROWS.map((r) => r.highlighter);

/** Each row under its name and its slug, lower-cased: `ruby`, `c#` and `cs`, `vb.net` and `vb`. */
const BY_KEY = new Map<string, LanguageRow>(ROWS.flatMap((r) => [[r.service.toLowerCase(), r], [r.slug, r]]));
const BY_VSCODE_ID = new Map<string, LanguageRow>(ROWS.flatMap((r) =>
  [r.builtIn, ...r.contributed, ...r.aliases].filter((id) => id !== 'plaintext').map((id) => [id, r] as const)));

function rowOf(nameOrSlug: string): LanguageRow | undefined {
  return BY_KEY.get(nameOrSlug.trim().toLowerCase());
}

/**
 * The service's spelling of a language given its name in any lettercase or its URL slug
 * (`ruby` → `Ruby`, `vb.net` and `vb` → `VB.NET`). Unknown names come back trimmed, as they are.
 */
export function canonicalServiceLanguage(name: string): string {
  return rowOf(name)?.service ?? name.trim();
}

/** True for a language of the service's table (by name or slug, any lettercase). */
export function isServiceLanguage(name: string): boolean {
  return rowOf(name) !== undefined;
}

/** The URL slug for a language: the table's (`cs`, `cpp`, `vb`), else the name in lower case. */
export function languageSlug(name: string): string {
  return rowOf(name)?.slug ?? name.trim().toLowerCase();
}

/**
 * The VS Code language id for a service language, case-insensitive; 'plaintext' when unknown.
 * With `available` (the ids of the running VS Code), an installed extension's id is preferred over
 * plaintext, e.g. Delphi → pascal when a Pascal extension is installed.
 */
export function toVsCodeLanguageId(serviceLanguage: string, available?: ReadonlySet<string>): string {
  const row = rowOf(serviceLanguage);
  if (!row) return 'plaintext';
  if (available) {
    const contributed = row.contributed.find((id) => available.has(id));
    if (contributed) return contributed;
  }
  return row.builtIn;
}

/**
 * The service language for a VS Code language id (for followEditorLanguage), or undefined when the
 * service has no such language (typescript, plaintext, markdown …). Ids are case-sensitive in VS Code.
 */
export function toServiceLanguage(vscodeLanguageId: string): string | undefined {
  return BY_VSCODE_ID.get(vscodeLanguageId)?.service;
}

/** The highlight.js grammar for a service language, or undefined to show plain text. */
export function highlightJsLanguage(serviceLanguage: string): HighlighterName | undefined {
  return rowOf(serviceLanguage)?.highlighter;
}

/** The file extension VS Code associates with a service language; `txt` for unknown ones. */
export function fileExtensionOf(serviceLanguage: string): string {
  return rowOf(serviceLanguage)?.fileExtension ?? 'txt';
}
