// How a date is written wherever the extension shows one (the Catalog's tooltips and notes, the code
// view, its notes): one format, in the display language. Pure, so the webview bundle uses it too.

/** A date and time as tooltips and the code view show it: `Nov 26, 2026, 10:15 AM`. */
export function formatDateTime(d: Date, locale?: string): string {
  return d.toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' });
}

/**
 * When something was kept, as a short note says it: only the time when it is today (`sameDay`),
 * else a short date and time. A sentence says "at" a time and "on" a date, so it gets both.
 */
export function formatWhen(d: Date, locale?: string, now: Date = new Date()): { sameDay: boolean; text: string } {
  const sameDay = d.toDateString() === now.toDateString();
  return sameDay
    ? { sameDay, text: d.toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit' }) }
    : { sameDay, text: d.toLocaleString(locale, { dateStyle: 'short', timeStyle: 'short' }) };
}
