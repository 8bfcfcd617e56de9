// A stranger's title in VS Code's own labels: a quick pick's text, a diff editor's title, a path a
// multi-diff editor names an entry by. No vscode import, so it runs under mocha.

// A quick pick renders `$(name)` in its label, description and detail as a codicon; VS Code's own
// escape (`\$(name)`, its escapeIcons) shows it as the text it is.
const ICON = /(\\)?\$\([A-Za-z0-9-]+(?:~[A-Za-z]+)?\)/g;

/** `text` with every `$(icon)` escaped, so a quick pick shows it as text. */
export function escapeIcons(text: string): string {
  return text.replace(ICON, (match, escaped: string | undefined) => (escaped ? match : `\\${match}`));
}

/** The diff editor's title for two sides. */
export function diffTitle(left: string, right: string): string {
  return `${left} ↔ ${right}`;
}

/** The longest file name `namedPath` gives; a longer name is cut, with an ellipsis. */
const MAX_NAME = 120;

/**
 * A path whose file name is `name` as a person reads it, for the multi-diff editor, which labels an
 * entry by its path's last segment (and marks it renamed when the two sides' paths differ). Slashes,
 * backslashes and control or format characters become spaces, so a stranger's title stays one
 * segment; the path is only a label (code/documentPaths.ts reads the document from the query).
 */
export function namedPath(name: string): string {
  let clean = name.replace(/[/\\\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, ' ').replace(/\s+/g, ' ').trim();
  const chars = [...clean];
  if (chars.length > MAX_NAME) clean = `${chars.slice(0, MAX_NAME - 1).join('').trimEnd()}…`;
  return `/${clean || '_'}`;
}
