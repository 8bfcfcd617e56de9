// A count with its noun, in English: "1 refactoring", "2 refactorings", "1,000 codes". One place for
// the command line, the MCP and language model tools' answers and the reference service's pages
// (the extension's own words go through vscode.l10n, which has its own plural forms).

/** `n` with `one` when it is 1, else with `many` (by default `one` and an s), digits grouped by thousands. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}
