/**
 * Reference stubs: how the live context holds a message by reference once it is too large in bytes to carry whole.
 * Tokens do not bound bytes, and a million-token context is 4–5 MB of JSON, over Temporal's 2 MiB payload limit for
 * the state carried through continue-as-new and the `context` query. Past the byte budget, after lightening
 * (`lighten.ts`) has done what it can, the oldest messages keep only their structure — roles, types, ids, short
 * strings, so planning reads them as before — and every long string becomes a note naming the archived original and
 * the first 16 hex digits of its SHA-256, so a message that merely looks like it is never taken for it.
 * Unlike lightening this changes nothing the model is sent: the entry keeps its identity and its original's token
 * count, the caller's mirror keeps the original, and a client with the archive reads originals back where a stub
 * reaches it (`isReferenceOf`). Pure and deterministic.
 */
import { canonicalJson, sha256Hex } from '../hash';
import { lightenMessage } from './lighten';

/** Strings up to this length stay in a stub (ids, names, types, roles, short text). */
const SHORT_STRING = 128;

/**
 * @param where names the archived original (`archiveWhere`), so `lightenedSeqs` finds the stub's sequence number.
 * @returns `raw` lightened, with every string over 128 characters replaced by a note naming the original and its
 *   hash (of the lightened message's canonical JSON: lightening twice changes nothing, so the stub of a lightened
 *   message is the stub of its original).
 */
export function referenceStub(raw: unknown, where: string): unknown {
  const light = lightenMessage(raw, where);
  const hash = sha256Hex(canonicalJson(light)).slice(0, 16);
  return shorten(light, `[the full message is ${where}, sha256 ${hash}…]`, 0);
}

function shorten(value: unknown, note: string, depth: number): unknown {
  if (typeof value === 'string') return value.length > SHORT_STRING ? note : value;
  if (typeof value !== 'object' || value === null || depth > 64) return value;
  if (Array.isArray(value)) return value.map((v) => shorten(v, note, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[k] = shorten(v, note, depth + 1);
  return out;
}

/**
 * @param where as given to `referenceStub` for message `original`.
 * @returns whether `live` is the reference stub of `original` (so text merely quoting a note is never replaced).
 */
export function isReferenceOf(live: unknown, original: unknown, where: string): boolean {
  return canonicalJson(referenceStub(original, where)) === canonicalJson(live);
}
