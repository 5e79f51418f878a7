/**
 * Clipping oversized items: one giant tool output must not pin the context over budget forever, since no cut can
 * fold the item a tail has to keep. An item above `clipRatio × budget` keeps its head and its end, and the middle is
 * replaced by a marker saying how much was cut and where the full text is (the conversation archive).
 */
import { adapterFor } from '../messages/adapter-for-format';
import type { FormatAdapter } from '../messages/format-adapter';
import type { Item, Transcript } from '../messages/types';

/** One clipped item. */
export interface ClipResult {
  index: number;
  /** The element with its text clipped (a new object; the original is untouched). */
  raw: unknown;
  /** Characters removed from the middle. */
  cutChars: number;
  /** Approximate tokens removed, scaled from the item's count. */
  cutTokens: number;
  /** Where the full text is. */
  archiveRef: string;
}

/** Roles whose text may be clipped: never instructions, summaries or (often encrypted) reasoning. */
const CLIPPABLE = new Set(['user', 'assistant', 'tool', 'activity', 'other']);

/** Moves a cut position off the middle of a surrogate pair. */
function runeSafe(text: string, pos: number): number {
  const code = text.charCodeAt(pos);
  return code >= 0xdc00 && code <= 0xdfff ? pos - 1 : pos;
}

/** The marker that replaces the clipped middle. */
export function clipMarker(cutChars: number, cutTokens: number, archiveRef: string): string {
  return `\n\n[… clipped: ${cutChars} characters (about ${cutTokens} tokens) removed from the middle of this item; the full text is in ${archiveRef} …]\n\n`;
}

/**
 * Clips one item to about `maxTokens`, keeping half of the kept characters from the start and half from the end.
 * Characters per token are taken from the item's own count, which includes its overhead, so the estimate errs on
 * the short side.
 * @returns the clipped element, or undefined when the item fits, is not clippable, or its text is too short for
 *   clipping to help (its tokens are elsewhere, e.g. call arguments).
 */
export function clipItem(
  item: Item,
  tokens: number,
  maxTokens: number,
  archiveRef: string,
  adapter: FormatAdapter
): ClipResult | undefined {
  if (tokens <= maxTokens || !CLIPPABLE.has(item.role) || tokens <= 0) return undefined;
  const text = item.text;
  const charsPerToken = text.length / tokens;
  const markerChars = clipMarker(text.length, tokens, archiveRef).length;
  const keepChars = Math.floor(maxTokens * 0.9 * charsPerToken) - markerChars;
  if (keepChars <= 0 || keepChars >= text.length) return undefined;
  const headEnd = runeSafe(text, Math.ceil(keepChars / 2));
  const tailStart = runeSafe(text, text.length - Math.floor(keepChars / 2));
  const cutChars = tailStart - headEnd;
  const cutTokens = Math.round(cutChars / charsPerToken);
  const clipped = text.slice(0, headEnd) + clipMarker(cutChars, cutTokens, archiveRef) + text.slice(tailStart);
  const raw = item.role === 'tool' ? adapter.withToolOutput(item.raw, clipped) : adapter.withText(item.raw, clipped);
  // An adapter hands back the element itself when it must not be edited (a turn whose reasoning the provider signs).
  if (raw === item.raw) return undefined;
  return { index: item.index, raw, cutChars, cutTokens, archiveRef };
}

/** Input of {@link clipOversized}. */
export interface ClipInput {
  transcript: Transcript;
  tokens: readonly number[];
  budget: number;
  /** Items above this share of the budget are clipped. @default 0.5 */
  clipRatio?: number;
  /** Where item `index`'s full text is kept, e.g. `archive:<conversation>#<seq>`. */
  archiveRef: (index: number) => string;
}

/**
 * Clips every item above `clipRatio × budget`.
 * @returns one result per clipped item, in order; the caller swaps each `raw` in and recounts it.
 */
export function clipOversized(input: ClipInput): ClipResult[] {
  const maxTokens = Math.floor((input.clipRatio ?? 0.5) * input.budget);
  const adapter = adapterFor(input.transcript.format);
  const out: ClipResult[] = [];
  for (const item of input.transcript.items) {
    const r = clipItem(item, input.tokens[item.index] ?? 0, maxTokens, input.archiveRef(item.index), adapter);
    if (r) out.push(r);
  }
  return out;
}
