/**
 * The narrative of the extractive summary: what the assistant said that is not narration of its next step, and one
 * line per distinct tool action. Filler ("Perfect! Now let me …") is removed and repeats are collapsed.
 */
import { clip } from '../../core/fold/text-clip';
import { splitStatements } from '../../core/fold/state-ledger/sentences';
import type { Item } from '../../core/messages/types';

// Openers that carry nothing ("Perfect!", "Great, now…") and narration of the next tool call ("Let me read the file").
const FILLER =
  /^(?:(?:perfect|great|excellent|good|nice|awesome|okay|ok|alright|sure|right|done|now|so|first|next|then|finally)\b[!.,:]?\s*)+/i;
const NARRATION = /^(?:let me|let's|i'll|i will|i need to|i'm going to|i am going to|i can see|i see|looking at)\b/i;

/**
 * The assistant's notes: one line per message that says something besides narration, repeats dropped.
 *
 * @param clipAt clip of one note, characters
 * @returns `- note` lines in order
 */
export function assistantNotes(items: readonly Item[], clipAt: number): string[] {
  const seen = new Set<string>();
  const lines: string[] = [];
  for (const item of items) {
    if (item.role !== 'assistant' || !item.text.trim()) continue;
    const kept = splitStatements(item.text)
      .map((s) => s.replace(FILLER, '').trim())
      .filter((s) => s.length > 2 && !NARRATION.test(s) && !/:\s*$/.test(s));
    if (kept.length === 0) continue;
    const note = clip(kept.join(' '), clipAt);
    const key = note.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    lines.push(`- ${note}`);
  }
  return lines;
}
