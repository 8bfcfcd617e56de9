// The service's languages, one row each: how the service spells the name in lists, the slug its
// URLs use, the VS Code language ids, the highlight.js grammar, the file extensions, and the
// language without a row of its own whose code is compared with the row's (TypeScript with
// JavaScript). Adding a language is a row here and its grammar in src/webview/highlight.ts. The one
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
  /**
   * The extensions of files in this language, lower case: the first is a virtual document's, so VS
   * Code can guess its language too; all of them tell a file's language when finding similar code.
   */
  fileExtensions: readonly string[];
  /** A language the service has no row for whose code is compared with this one's, by VS Code id and file extension. */
  matchedBy?: { readonly name: string; readonly vscodeIds: readonly string[]; readonly fileExtensions: readonly string[] };
}

// VS Code ships no grammar for ActionScript, Lisp, Erlang, Haskell or Pascal/Delphi (there is no
// extensions/pascal, extensions/haskell … in microsoft/vscode), and an unknown id makes
// setTextDocumentLanguage throw, so those fall back to plaintext unless an extension provides one.
const ROWS: readonly LanguageRow[] = [
  { service: 'Ruby', slug: 'ruby', builtIn: 'ruby', contributed: [], aliases: [], highlighter: 'ruby', fileExtensions: ['rb'] },
  { service: 'PHP', slug: 'php', builtIn: 'php', contributed: [], aliases: [], highlighter: 'php', fileExtensions: ['php'] },
  { service: 'JavaScript', slug: 'javascript', builtIn: 'javascript', contributed: [], aliases: ['javascriptreact'], highlighter: 'javascript', fileExtensions: ['js', 'mjs', 'cjs', 'jsx'],
    matchedBy: { name: 'TypeScript', vscodeIds: ['typescript', 'typescriptreact'], fileExtensions: ['ts', 'mts', 'cts', 'tsx'] } },
  { service: 'ActionScript', slug: 'actionscript', builtIn: 'plaintext', contributed: ['actionscript'], aliases: [], highlighter: 'actionscript', fileExtensions: ['as'] },
  { service: 'Java', slug: 'java', builtIn: 'java', contributed: [], aliases: [], highlighter: 'java', fileExtensions: ['java'] },
  { service: 'C', slug: 'c', builtIn: 'c', contributed: [], aliases: [], highlighter: 'c', fileExtensions: ['c', 'h'] },
  { service: 'C++', slug: 'cpp', builtIn: 'cpp', contributed: [], aliases: ['cuda-cpp'], highlighter: 'cpp', fileExtensions: ['cpp', 'cc', 'cxx', 'hpp', 'hh'] },
  { service: 'C#', slug: 'cs', builtIn: 'csharp', contributed: [], aliases: [], highlighter: 'csharp', fileExtensions: ['cs'] },
  { service: 'VB.NET', slug: 'vb', builtIn: 'vb', contributed: [], aliases: [], highlighter: 'vbnet', fileExtensions: ['vb'] },
  { service: 'Python', slug: 'python', builtIn: 'python', contributed: [], aliases: [], highlighter: 'python', fileExtensions: ['py'] },
  { service: 'Perl', slug: 'perl', builtIn: 'perl', contributed: [], aliases: [], highlighter: 'perl', fileExtensions: ['pl', 'pm'] },
  { service: 'Lisp', slug: 'lisp', builtIn: 'plaintext', contributed: ['commonlisp', 'lisp'], aliases: [], highlighter: 'lisp', fileExtensions: ['lisp', 'lsp', 'cl', 'el'] },
  { service: 'Erlang', slug: 'erlang', builtIn: 'plaintext', contributed: ['erlang'], aliases: [], highlighter: 'erlang', fileExtensions: ['erl', 'hrl'] },
  { service: 'Haskell', slug: 'haskell', builtIn: 'plaintext', contributed: ['haskell'], aliases: [], highlighter: 'haskell', fileExtensions: ['hs'] },
  { service: 'Bash', slug: 'bash', builtIn: 'shellscript', contributed: [], aliases: [], highlighter: 'bash', fileExtensions: ['sh', 'bash'] },
  { service: 'Delphi', slug: 'delphi', builtIn: 'plaintext', contributed: ['pascal', 'objectpascal', 'delphi'], aliases: [], highlighter: 'delphi', fileExtensions: ['pas', 'dpr'] },
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
  return rowOf(serviceLanguage)?.fileExtensions[0] ?? 'txt';
}

const BY_EXTENSION = new Map<string, LanguageRow>(ROWS.flatMap((r) =>
  [...r.fileExtensions, ...(r.matchedBy?.fileExtensions ?? [])].map((ext) => [ext, r] as const)));
const MATCHED_BY_VSCODE_ID = new Map<string, LanguageRow>(ROWS.flatMap((r) => (r.matchedBy?.vscodeIds ?? []).map((id) => [id, r] as const)));

/**
 * The service language whose codes a file with extension `ext` (no dot, any lettercase) is compared
 * with: its own (`rb` → Ruby), or the one its language is matched by (`ts` → JavaScript); undefined when none.
 */
export function serviceLanguageOfExtension(ext: string): string | undefined {
  return BY_EXTENSION.get(ext.toLowerCase())?.service;
}

/**
 * The service language whose codes a document with VS Code language id `vscodeLanguageId` is
 * compared with: toServiceLanguage's, or the one its language is matched by (typescript → JavaScript).
 */
export function matchingServiceLanguage(vscodeLanguageId: string): string | undefined {
  return toServiceLanguage(vscodeLanguageId) ?? MATCHED_BY_VSCODE_ID.get(vscodeLanguageId)?.service;
}
