/**
 * Keeps the live context under its byte budget (`maxContextBytes`) after an append: the heaviest messages before
 * the newest append are lightened (see `core/fold/lighten.ts`); their originals stay in the archive, and a fold
 * summarises the originals. The caller's mirror receives the lightened versions as inserts. When lightening cannot
 * make room (a million-token context of ordinary messages), the oldest messages are then held by reference
 * (`core/fold/reference-stub.ts`): the workflow keeps their structure and counts, the caller's mirror the originals.
 */
import { archiveWhere, lightenToBudget } from '../../core/fold/lighten';
import { referenceStub } from '../../core/fold/reference-stub';
import { utf8Length } from '../../contract/bytes';
import type { ConversationState } from './conversation-state';

/** Default byte budget of the live context: far below Temporal's 2 MiB payload limit, with room for the rest. */
export const DEFAULT_MAX_CONTEXT_BYTES = 1_048_576;

/** @returns the bytes of a message as JSON. */
export function jsonBytes(raw: unknown): number {
  return utf8Length(JSON.stringify(raw) ?? '');
}

/**
 * Sizes of live messages already weighed, by identity: an append weighs only its new messages, not the whole context
 * again. Deterministic: a message is never changed in place (a rewrite is a new object), so a size read here is the
 * size a replay computes afresh.
 */
const weighedBytes = new WeakMap<object, number>();

function bytesOf(raw: unknown): number {
  if (typeof raw !== 'object' || raw === null) return jsonBytes(raw);
  let bytes = weighedBytes.get(raw);
  if (bytes === undefined) weighedBytes.set(raw, (bytes = jsonBytes(raw)));
  return bytes;
}

/** Share of the byte budget that holding messages by reference brings the live context down to (hysteresis). */
const REFERENCE_TARGET = 0.75;

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
  // Under the budget (an ordinary step) nothing is lightened or held by reference: one sum of sizes weighed before.
  let total = 0;
  for (const e of s.live) total += bytesOf(e.raw);
  if (total <= max) return 0;
  // A pinned message stays verbatim (no sequence number: never lightened); a reference stub has nothing to lighten.
  const weighed = s.live.map((e) => ({ raw: e.raw, seq: e.pinned || e.ref ? null : e.seq, bytes: bytesOf(e.raw) }));
  const replaced = lightenToBudget(weighed, max, protectFrom, (seq) => archiveWhere(s.conversationId, seq), jsonBytes);
  if (replaced.length > 0) {
    const counts = await count(replaced.map((r) => r.raw));
    // The last reported context is no longer a prefix of this one: the commit drops the calibration's anchor.
    state.commitEviction(replaced.map((r, k) => ({ index: r.index, raw: r.raw, tokens: counts[k] ?? 0 })));
    for (const r of replaced) weighed[r.index] = { ...weighed[r.index]!, raw: r.raw, bytes: bytesOf(r.raw) };
  }
  // Held by reference down to three quarters of the budget, so the next appends do not each hold one more.
  if (weighed.reduce((sum, m) => sum + m.bytes, 0) > max) {
    state.commitReferences(referenceToBudget(weighed, max * REFERENCE_TARGET, s.conversationId));
  }
  return replaced.length;
}

/**
 * Picks the messages to hold by reference, oldest first, until the total fits `maxBytes`. Those without a number
 * here (pinned messages, summaries, messages already held by reference) are left.
 * @returns each one's index, stub and original size in bytes (only those the stub makes lighter).
 */
function referenceToBudget(
  weighed: readonly { raw: unknown; seq: number | null; bytes: number }[],
  maxBytes: number,
  conversationId: string
): { index: number; raw: unknown; bytes: number }[] {
  let total = weighed.reduce((sum, m) => sum + m.bytes, 0);
  const out: { index: number; raw: unknown; bytes: number }[] = [];
  for (let index = 0; index < weighed.length && total > maxBytes; index++) {
    const m = weighed[index]!;
    if (m.seq === null) continue;
    const raw = referenceStub(m.raw, archiveWhere(conversationId, m.seq));
    const bytes = bytesOf(raw);
    if (bytes >= m.bytes) continue;
    out.push({ index, raw, bytes: m.bytes });
    total -= m.bytes - bytes;
  }
  return out;
}
