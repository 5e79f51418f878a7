import { adapterFor } from './adapter-for-format';
import { answeredCalls } from './answers';
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
 * `normalize([...base's raws, ...more], base.format)` without reading the base again: its items are shared (their
 * pairing is redone in place with the same outcome), only `more` is read. A transcript grows by a few messages per
 * turn, so this keeps an append O(new messages) plus one cheap pairing pass.
 * @returns a new transcript; `base` is unchanged.
 * @throws TranscriptValidationError as `normalize` would (indices count from the start of `base`).
 */
export function extendTranscript(base: Transcript, more: readonly unknown[]): Transcript {
  const adapter = adapterFor(base.format);
  const items = [...base.items, ...more.map((raw, i) => adapter.toItem(raw, base.items.length + i))];
  pairResults(items, true);
  return { format: base.format, items };
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
  const answered = answeredCalls(transcript.items);
  const pending: { itemIndex: number; callIndex: number }[] = [];
  for (const item of transcript.items) {
    item.calls.forEach((_, c) => {
      if (!answered.has(`${item.index}:${c}`)) pending.push({ itemIndex: item.index, callIndex: c });
    });
  }
  return pending;
}
