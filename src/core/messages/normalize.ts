import { adapterFor } from './adapters';
import { detectFormat } from './detect';
import { pairResults } from './pair';
import type { MessageFormat, Transcript } from './types';

/**
 * Reads a caller's transcript into one Item per element, in order, with every tool result paired to its call.
 * @param format the wire format; detected from the elements when omitted (see `detectFormat`).
 * @throws TranscriptValidationError on a malformed element, a result whose call id is unknown, or a call answered
 *   twice.
 */
export function normalize(messages: readonly unknown[], format?: MessageFormat): Transcript {
  const adapter = adapterFor(format ?? detectFormat(messages));
  const items = messages.map((raw, index) => adapter.toItem(raw, index));
  pairResults(items, true);
  return { format: adapter.format, items };
}

/**
 * The caller's elements back, in order: the identity on a transcript `normalize` produced.
 * @returns a new array holding the untouched raws.
 */
export function denormalize<Raw>(transcript: Transcript<Raw>): Raw[] {
  return transcript.items.map((item) => item.raw);
}

/**
 * Indices of calls that have no result in the transcript: `{itemIndex, callIndex}` pairs in order.
 */
export function pendingCalls(transcript: Transcript): { itemIndex: number; callIndex: number }[] {
  const answered = new Set<string>();
  for (const item of transcript.items) {
    if (item.answers) answered.add(`${item.answers.itemIndex}:${item.answers.callIndex}`);
  }
  const pending: { itemIndex: number; callIndex: number }[] = [];
  for (const item of transcript.items) {
    item.calls.forEach((_, c) => {
      if (!answered.has(`${item.index}:${c}`)) pending.push({ itemIndex: item.index, callIndex: c });
    });
  }
  return pending;
}
