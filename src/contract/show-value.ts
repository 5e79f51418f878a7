/** A short rendering of a refused value, for the contract's messages. */

/** @returns the value as JSON, at most 80 characters (never the whole of a large one); `undefined` as the word. */
export function show(value: unknown): string {
  if (value === undefined) return 'undefined';
  let text: string;
  try {
    text = JSON.stringify(value) ?? typeof value;
  } catch {
    text = typeof value;
  }
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
