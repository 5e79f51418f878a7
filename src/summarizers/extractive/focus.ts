/**
 * The focus of a `compactNow` in the extractive digest: the statements of the folded messages that mention one of its
 * words are listed first, verbatim with their archive numbers, in a section of their own (at most a quarter of the
 * summary), and narrative lines that mention them are chosen before the others.
 */
import { clip } from '../../core/fold/text-clip';
import { splitStatements } from '../../core/fold/state-ledger/sentences';
import type { Item } from '../../core/messages/types';
import type { Count } from './fit';
import { takeWithin } from './fit';

/** Share of the summary's cap the focus section may take. */
export const FOCUS_SHARE = 0.25;

/** Clip of one statement of the focus section, characters. */
const STATEMENT_CLIP = 400;

/** @returns a test of whether a text mentions one of the focus's words (3+ letters or digits, any case). */
export function mentionsFocus(focus: string | undefined): ((text: string) => boolean) | undefined {
  const words = [...new Set((focus ?? '').toLowerCase().match(/[\p{L}\p{N}_./-]{3,}/gu) ?? [])];
  if (words.length === 0) return undefined;
  return (text) => {
    const lower = text.toLowerCase();
    return words.some((w) => lower.includes(w));
  };
}

/**
 * The focus section: matching statements of `items` (any role; repeats once), newest first within `maxTokens`,
 * printed in order as `- [#seq] statement`.
 * @returns the section, or '' when no statement matches or none fits.
 */
export function focusSection(
  items: readonly Item[],
  seqs: readonly (number | null)[] | undefined,
  focus: string,
  maxTokens: number,
  count: Count
): string {
  const matches = mentionsFocus(focus);
  if (!matches) return '';
  const seen = new Set<string>();
  const lines: string[] = [];
  items.forEach((item, i) => {
    const ref = seqs?.[i] !== undefined && seqs[i] !== null ? `[#${seqs[i]}] ` : '';
    for (const statement of splitStatements(item.text)) {
      const key = statement.toLowerCase();
      if (!matches(statement) || seen.has(key)) continue;
      seen.add(key);
      lines.push(`- ${ref}${clip(statement, STATEMENT_CLIP)}`);
    }
  });
  const title = `Kept first, as asked (focus: ${clip(focus.replace(/\s+/g, ' '), 120)}):`;
  const room = maxTokens - count(title) - 1;
  const kept = takeWithin([...lines].reverse(), room, count).taken.reverse();
  return kept.length > 0 ? `${title}\n${kept.join('\n')}` : '';
}
