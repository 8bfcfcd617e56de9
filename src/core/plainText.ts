// VS Code turns `[label](target)` in a notification's message into a link when the target starts with
// `http://`, `https://`, `command:` or `file:` (any case), and runs a clicked `command:` link. It
// links nothing else: no bare URL, no Markdown, no HTML. Text from a service (a title, a URL it
// redirected to) must show as the text it is, so every message passes through plainText.

/** A `](` that VS Code's notification renderer would read as the middle of a link. */
const LINK_MIDDLE = /\](?=\((?:https?:\/\/|command:|file:))/gi;
/** U+2060 WORD JOINER: invisible and not a line-break opportunity, so the text reads and wraps as sent. */
const JOINER = '\u2060';

/**
 * `text` as it is, with an invisible word joiner between the `]` and `(` of every `](` that a link
 * target follows, so that no part of it can be read as a link.
 */
export function plainText(text: string): string {
  return text.replace(LINK_MIDDLE, `]${JOINER}`);
}
