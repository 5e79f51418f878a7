/**
 * Keeps the live context under its byte budget (`maxContextBytes`) after an append: the heaviest messages before
 * the newest append are lightened (see `core/fold/lighten.ts`); their originals stay in the archive, and a fold
 * summarises the originals. The caller's mirror receives the lightened versions as inserts.
 */
import { archiveWhere, lightenToBudget } from '../core/fold/lighten';
import { utf8Length } from '../contract/bytes';
import type { ConversationState } from './conversation-state';

/** Default byte budget of the live context: far below Temporal's 2 MiB payload limit, with room for the rest. */
export const DEFAULT_MAX_CONTEXT_BYTES = 1_048_576;

/** @returns the bytes of a message as JSON. */
export function jsonBytes(raw: unknown): number {
  return utf8Length(JSON.stringify(raw) ?? '');
}

/**
 * Lightens messages until the live context fits its byte budget.
 * @param protectFrom index of the first message of the newest append (lightened last).
 * @param count counts tokens of the replacement messages (an activity).
 * @returns how many messages were lightened.
 */
export async function keepUnderByteBudget(
  state: ConversationState,
  protectFrom: number,
  count: (raws: unknown[]) => Promise<number[]>
): Promise<number> {
  const s = state.carried;
  const max = s.settings.maxContextBytes ?? DEFAULT_MAX_CONTEXT_BYTES;
  // A pinned message stays verbatim (no sequence number: never lightened).
  const weighed = s.live.map((e) => ({ raw: e.raw, seq: e.pinned ? null : e.seq, bytes: jsonBytes(e.raw) }));
  const replaced = lightenToBudget(weighed, max, protectFrom, (seq) => archiveWhere(s.conversationId, seq), jsonBytes);
  if (replaced.length === 0) return 0;
  const counts = await count(replaced.map((r) => r.raw));
  // The last reported context is no longer a prefix of this one: the commit drops the calibration's anchor.
  state.commitEviction(replaced.map((r, k) => ({ index: r.index, raw: r.raw, tokens: counts[k] ?? 0 })));
  return replaced.length;
}
