import { adapterFor } from './adapter-for-format';
import { checkFormatOf, detectFormat } from './detect';
import { answeredCalls, pairAppended, pairResults } from './pair';
import type { MessageFormat, Transcript } from './types';

/**
 * Reads a caller's transcript into one Item per element, in order, with every tool result paired to its call.
 * @param format the wire format; detected from the elements when omitted (see `detectFormat`).
 * @param options.stored true for elements a conversation already stored: they are read as they were accepted, without
 *   refusing elements of another format (which earlier versions accepted). @default false
 * @throws TranscriptValidationError on a malformed element, an element of another format (`format-conflict`), a
 *   result whose call id is unknown, or a call answered twice.
 */
export function normalize(
  messages: readonly unknown[],
  format?: MessageFormat,
  options: { stored?: boolean } = {}
): Transcript {
  const adapter = adapterFor(format ?? detectFormat(messages));
  if (!options.stored) checkFormatOf(messages, adapter.format);
  const items = messages.map((raw, index) => adapter.toItem(raw, index));
  pairResults(items, true);
  return { format: adapter.format, items };
}

/**
 * `normalize([...base's raws, ...more], base.format)` without reading the base again: its items are shared (their
 * pairing cannot change), only `more` is read and paired, against the calls the base left open (`pairAppended`). A
 * transcript grows by a few messages per turn, so this keeps an append O(new messages) (and one array copy).
 * @returns a new transcript; `base` is unchanged.
 * @param options.stored as for `normalize`.
 * @throws TranscriptValidationError as `normalize` would (indices count from the start of `base`).
 */
export function extendTranscript(
  base: Transcript,
  more: readonly unknown[],
  options: { stored?: boolean } = {}
): Transcript {
  const adapter = adapterFor(base.format);
  if (!options.stored) checkFormatOf(more, base.format, base.items.length);
  const items = [...base.items, ...more.map((raw, i) => adapter.toItem(raw, base.items.length + i))];
  pairAppended(base.items, items, base.items.length);
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
