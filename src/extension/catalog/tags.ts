// Saved tags: what counts as one. Tags travel as one URL path segment (urls.ts refuses the rest).

/** The tag as saved (trimmed), or undefined when it cannot be one. */
export function normalizeTag(input: string): string | undefined {
  const tag = input.trim();
  if (tag === '' || tag.includes('/') || /^\.+$/.test(tag)) return undefined;
  return tag;
}
