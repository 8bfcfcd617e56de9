// The service's language names against VS Code language ids and highlight.js language names.
// Pure (no vscode import) so it runs under mocha; the extension passes `vscode.languages.getLanguages()`
// in where it wants ids that installed extensions add.

/** One row per service language: its spelling in lists, VS Code ids, highlight.js name. */
interface LanguageRow {
  service: string;
  /** An id VS Code ships built in (microsoft/vscode/extensions), or 'plaintext' where it has none. */
  builtIn: string;
  /** Ids that well-known marketplace extensions register, preferred when installed. */
  contributed: readonly string[];
  /** Further VS Code ids that mean this language, for the reverse mapping only. */
  aliases: readonly string[];
  highlightJs: string;
}

// VS Code ships no grammar for ActionScript, Lisp, Erlang, Haskell or Pascal/Delphi (there is no
// extensions/pascal, extensions/haskell … in microsoft/vscode), and an unknown id makes
// setTextDocumentLanguage throw, so those fall back to plaintext unless an extension provides one.
const ROWS: readonly LanguageRow[] = [
  { service: 'Ruby', builtIn: 'ruby', contributed: [], aliases: [], highlightJs: 'ruby' },
  { service: 'PHP', builtIn: 'php', contributed: [], aliases: [], highlightJs: 'php' },
  { service: 'JavaScript', builtIn: 'javascript', contributed: [], aliases: ['javascriptreact'], highlightJs: 'javascript' },
  { service: 'ActionScript', builtIn: 'plaintext', contributed: ['actionscript'], aliases: [], highlightJs: 'actionscript' },
  { service: 'Java', builtIn: 'java', contributed: [], aliases: [], highlightJs: 'java' },
  { service: 'C', builtIn: 'c', contributed: [], aliases: [], highlightJs: 'c' },
  { service: 'C++', builtIn: 'cpp', contributed: [], aliases: ['cuda-cpp'], highlightJs: 'cpp' },
  { service: 'C#', builtIn: 'csharp', contributed: [], aliases: [], highlightJs: 'csharp' },
  { service: 'VB.NET', builtIn: 'vb', contributed: [], aliases: [], highlightJs: 'vbnet' },
  { service: 'Python', builtIn: 'python', contributed: [], aliases: [], highlightJs: 'python' },
  { service: 'Perl', builtIn: 'perl', contributed: [], aliases: [], highlightJs: 'perl' },
  { service: 'Lisp', builtIn: 'plaintext', contributed: ['commonlisp', 'lisp'], aliases: [], highlightJs: 'lisp' },
  { service: 'Erlang', builtIn: 'plaintext', contributed: ['erlang'], aliases: [], highlightJs: 'erlang' },
  { service: 'Haskell', builtIn: 'plaintext', contributed: ['haskell'], aliases: [], highlightJs: 'haskell' },
  { service: 'Bash', builtIn: 'shellscript', contributed: [], aliases: [], highlightJs: 'bash' },
  { service: 'Delphi', builtIn: 'plaintext', contributed: ['pascal', 'objectpascal', 'delphi'], aliases: [], highlightJs: 'delphi' },
];

function rowOf(serviceLanguage: string): LanguageRow | undefined {
  const key = serviceLanguage.trim().toLowerCase();
  return ROWS.find((r) => r.service.toLowerCase() === key);
}

/**
 * The service's spelling of a language (`ruby` → `Ruby`, `vb.net` → `VB.NET`): lettercase varies
 * between responses. Unknown names come back trimmed, as they are.
 */
export function canonicalServiceLanguage(name: string): string {
  return rowOf(name)?.service ?? name.trim();
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
  if (vscodeLanguageId === 'plaintext') return undefined;
  const row = ROWS.find((r) => r.builtIn === vscodeLanguageId || r.contributed.includes(vscodeLanguageId)
    || r.aliases.includes(vscodeLanguageId));
  return row?.service;
}

/** The highlight.js language name for a service language, or undefined to show plain text. */
export function highlightJsLanguage(serviceLanguage: string): string | undefined {
  return rowOf(serviceLanguage)?.highlightJs;
}

/** Every highlight.js language the code view bundles (the webview registers exactly these). */
export const HIGHLIGHT_JS_LANGUAGES: readonly string[] = ROWS.map((r) => r.highlightJs);
