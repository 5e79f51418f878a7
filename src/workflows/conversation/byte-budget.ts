/**
 * Keeps the live context under its byte budget (`maxContextBytes`) after an append: the heaviest messages before
 * the newest append are lightened (see `core/fold/lighten.ts`); their originals stay in the archive, and a fold
 * summarises the originals. The caller's mirror receives the lightened versions as inserts. When lightening cannot
 * make room (a million-token context of ordinary messages), the oldest messages are then held by reference
 * (`core/fold/reference-stub.ts`): the workflow keeps their structure and counts, the caller's mirror the originals.
 */
import { archiveWhere, lightenMessage, lightenToBudget } from '../../core/fold/lighten';
import { referenceStub } from '../../core/fold/reference-stub';
import type { ConversationState } from './conversation-state';
import type { LiveEntry } from './live-entry';
import { bytesOf, jsonBytes } from './live-tally';

export { jsonBytes } from './live-tally';

/** Default byte budget of the live context: far below Temporal's 2 MiB payload limit, with room for the rest. */
export const DEFAULT_MAX_CONTEXT_BYTES = 1_048_576;

/** Share of the byte budget that holding messages by reference brings the live context down to (hysteresis). */
const REFERENCE_TARGET = 0.75;

/** @returns whether the live context is over its byte budget (`maxContextBytes`, default 1 MiB). */
export function overByteBudget(state: ConversationState): boolean {
  return state.liveBytes() > (state.carried.settings.maxContextBytes ?? DEFAULT_MAX_CONTEXT_BYTES);
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
  // Under the budget (an ordinary step) nothing is lightened or held by reference: the running sum says so.
  if (!overByteBudget(state)) return 0;
  // Over it, only the messages after the settled prefix can give anything: the passes below skip the others anyway,
  // so leaving them out changes no choice (the budgets are shifted by the prefix's bytes instead).
  const from = settledPrefix(state);
  // A pinned message stays verbatim (no sequence number: never lightened); a reference stub has nothing to lighten.
  const weighed = s.live
    .slice(from)
    .map((e) => ({ raw: e.raw, seq: e.pinned || e.ref ? null : e.seq, bytes: bytesOf(e.raw) }));
  const prefixBytes = state.liveBytes() - weighed.reduce((sum, m) => sum + m.bytes, 0);
  const where = (seq: number): string => archiveWhere(s.conversationId, seq);
  const replaced = lightenToBudget(weighed, max - prefixBytes, protectFrom - from, where, jsonBytes);
  if (replaced.length > 0) {
    const counts = await count(replaced.map((r) => r.raw));
    // The last reported context is no longer a prefix of this one: the commit drops the calibration's anchor.
    state.commitEviction(replaced.map((r, k) => ({ index: from + r.index, raw: r.raw, tokens: counts[k] ?? 0 })));
    for (const r of replaced) weighed[r.index] = { ...weighed[r.index]!, raw: r.raw, bytes: bytesOf(r.raw) };
  }
  // Held by reference down to three quarters of the budget, so the next appends do not each hold one more.
  if (prefixBytes + weighed.reduce((sum, m) => sum + m.bytes, 0) > max) {
    const held = referenceToBudget(weighed, max * REFERENCE_TARGET - prefixBytes, s.conversationId);
    state.commitReferences(held.map((r) => ({ ...r, index: from + r.index })));
  }
  settledPrefix(state);
  return replaced.length;
}

/** Per conversation state: how long a prefix of its live context was found settled, at which version. */
const settledPrefixes = new WeakMap<ConversationState, { length: number; version: number }>();

/**
 * The live context's settled prefix: messages neither pass can make lighter (see {@link settled}). It only grows
 * while the context is appended to, and shrinks to where a fold, eviction or other edit changed the context, so
 * each call reads only the messages since the last one.
 * @returns the prefix's length.
 */
function settledPrefix(state: ConversationState): number {
  const s = state.carried;
  const known = settledPrefixes.get(state);
  let length = known ? Math.min(known.length, state.unchangedBelow(known.version), s.live.length) : 0;
  while (length < s.live.length && settled(s.live[length]!, s.conversationId)) length++;
  settledPrefixes.set(state, { length, version: s.version });
  return length;
}

/** Entries found to give nothing: neither lightening nor a stub makes them lighter (an entry's raw never changes). */
const inert = new WeakSet<object>();

/**
 * @returns whether neither pass can make the entry lighter: a summary, a pinned message, a stub, or a message
 *   whose lightened version and stub both weigh as much as it does.
 */
function settled(e: Readonly<LiveEntry>, conversationId: string): boolean {
  if (e.seq === null || e.pinned || e.ref || inert.has(e)) return true;
  const where = archiveWhere(conversationId, e.seq);
  const bytes = bytesOf(e.raw);
  if (jsonBytes(lightenMessage(e.raw, where)) < bytes || jsonBytes(referenceStub(e.raw, where)) < bytes) return false;
  inert.add(e);
  return true;
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
