/**
 * Reading back what the byte budget lightened (see `lighten.ts`): a lightened message names its archived original
 * (`archiveWhere`), and the original is known to be the right one only if lightening it again gives exactly the live
 * message — so text that merely quotes the note (say, a user pasting it) is never replaced. Pure.
 */
import { canonicalJson } from '../hash';
import { archiveWhere, lightenMessage } from './lighten';

const NOTE = /the (?:original|full message) is in the conversation archive \(conversation (.+?), message #(\d+)\)/g;

/**
 * @returns the archive sequence numbers the notes inside a message name (a lightened message names one; text quoting
 *   a note may name others), in order of appearance, without repeats.
 */
export function lightenedSeqs(raw: unknown, conversationId: string): number[] {
  const out = new Set<number>();
  collectNotes(raw, conversationId, out, 0);
  return [...out];
}

function collectNotes(value: unknown, conversationId: string, out: Set<number>, depth: number): void {
  if (typeof value === 'string') {
    for (const m of value.matchAll(NOTE)) if (m[1] === conversationId) out.add(Number(m[2]));
    return;
  }
  if (typeof value !== 'object' || value === null || depth > 64) return;
  for (const v of Array.isArray(value) ? value : Object.values(value)) collectNotes(v, conversationId, out, depth + 1);
}

/** @returns whether `live` is `original` lightened by the byte budget of conversation `conversationId`. */
export function isLightenedFrom(live: unknown, original: unknown, conversationId: string, seq: number): boolean {
  return canonicalJson(lightenMessage(original, archiveWhere(conversationId, seq))) === canonicalJson(live);
}
