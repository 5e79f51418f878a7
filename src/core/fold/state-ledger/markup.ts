/**
 * Markup in a statement's text: tags (`<system-reminder>…</system-reminder>`, `<br/>`, `<a href="…">`) are layout,
 * but a placeholder written in angle brackets (`feature/<ticket>-short-description`, `<your-api-key>`) is part of
 * what was said.
 */

const TAG = /<(\/?)([a-z][\w-]*)(\s[^>]*)?(\/?)>/gi;

// Elements that never have a closing tag: a bare `<br>` is layout.
const VOID = new Set(['br', 'hr', 'img', 'input', 'meta', 'link', 'wbr']);

/**
 * Replaces every markup tag of `text` by a space: a closing tag, a self-closing or void one, one with attributes,
 * and an opening tag whose closing tag the text also holds. A lone `<word>` stays: it is a placeholder.
 *
 * @returns the text without its markup (not trimmed)
 */
export function stripMarkup(text: string): string {
  if (!text.includes('<')) return text;
  const closed = new Set([...text.matchAll(/<\/([a-z][\w-]*)\s*>/gi)].map((m) => m[1]!.toLowerCase()));
  return text.replace(TAG, (tag, close: string, name: string, attrs: string | undefined, self: string) => {
    const n = name.toLowerCase();
    const markup = close !== '' || self !== '' || attrs !== undefined || VOID.has(n) || closed.has(n);
    return markup ? ' ' : tag;
  });
}
