/**
 * The live context's byte budget. Tokens do not bound bytes: an image counts a few hundred tokens but can weigh a
 * MiB, and a run of '=' is 64 characters a token. The live context is workflow state (carried through
 * continue-as-new, returned by the `context` query) and must stay far below Temporal's 2 MiB payload limit, so once
 * it is over its byte budget the heaviest messages before the newest ones are *lightened*: binary parts (images,
 * files, audio) become a short text part naming the archived original, and long strings (text, tool arguments,
 * payloads) keep their head and tail around a marker. The archive keeps every original; a fold reads originals.
 * Pure and deterministic.
 */

/** Content part types that carry binary data (chat and Responses). */
const BINARY_PARTS = new Set(['image_url', 'input_image', 'image', 'file', 'input_file', 'input_audio', 'audio']);
/** Strings longer than this are clipped when a message is lightened. */
const LONG_STRING = 4096;
const KEEP_HEAD = 1536;
const KEEP_TAIL = 512;

/** @returns where the note of a lightened message says its original is (read back by `originals.ts`). */
export function archiveWhere(conversationId: string, seq: number): string {
  return `in the conversation archive (conversation ${conversationId}, message #${seq})`;
}

/** One live message as the budget sees it. */
export interface WeighedMessage {
  raw: unknown;
  bytes: number;
  /** Its archive sequence number (null for summaries, which are never lightened). */
  seq: number | null;
}

/**
 * Picks the messages to lighten, heaviest first, until the total fits `maxBytes` or nothing more can be lightened.
 * Messages from `protectFrom` on (the newest append) are lightened only if the older ones cannot make room.
 * @param where how the marker names the archived original of message `seq`.
 * @returns the replacements by index (only those that got lighter).
 */
export function lightenToBudget(
  messages: readonly WeighedMessage[],
  maxBytes: number,
  protectFrom: number,
  where: (seq: number) => string,
  sizeOf: (raw: unknown) => number
): { index: number; raw: unknown }[] {
  let total = messages.reduce((sum, m) => sum + m.bytes, 0);
  if (total <= maxBytes) return [];
  const order = messages
    .map((m, index) => ({ index, bytes: m.bytes, old: index < protectFrom }))
    .filter(({ index }) => messages[index]!.seq !== null)
    // Older messages first, heaviest first within each group.
    .sort((a, b) => (a.old === b.old ? b.bytes - a.bytes : a.old ? -1 : 1));
  const out: { index: number; raw: unknown }[] = [];
  for (const { index } of order) {
    if (total <= maxBytes) break;
    const m = messages[index]!;
    const raw = lightenMessage(m.raw, where(m.seq!));
    const bytes = sizeOf(raw);
    if (bytes >= m.bytes) continue;
    out.push({ index, raw });
    total -= m.bytes - bytes;
  }
  return out;
}

/** @returns a copy of `raw` with binary parts replaced and long strings clipped (keys and structure kept). */
export function lightenMessage(raw: unknown, where: string): unknown {
  return lighten(raw, where, 0);
}

function lighten(value: unknown, where: string, depth: number): unknown {
  if (typeof value === 'string') {
    if (value.length <= LONG_STRING) return value;
    const cut = value.length - KEEP_HEAD - KEEP_TAIL;
    return `${value.slice(0, KEEP_HEAD)}\n[… ${cut} characters left out here to keep the context small; the full message is ${where} …]\n${value.slice(-KEEP_TAIL)}`;
  }
  if (typeof value !== 'object' || value === null || depth > 64) return value;
  if (Array.isArray(value)) return value.map((v) => lighten(v, where, depth + 1));
  const obj = value as Record<string, unknown>;
  if (typeof obj.type === 'string' && BINARY_PARTS.has(obj.type)) {
    const textType = obj.type.startsWith('input_') ? 'input_text' : 'text';
    return { type: textType, text: `[${obj.type} left out to keep the context small; the original is ${where}]` };
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) out[k] = lighten(v, where, depth + 1);
  return out;
}
