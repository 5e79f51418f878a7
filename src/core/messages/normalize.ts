import { adapterFor } from './adapter-for-format';
import { checkFormatOf, detectFormat } from './detect';
import { answeredCalls, pairAppended, pairResults, pairsAs } from './pair';
import type { Item } from './types';
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
  // One copy of the stored items (a spread would step through them one by one).
  const items = base.items.concat(more.map((raw, i) => adapter.toItem(raw, base.items.length + i)));
  pairAppended(base.items, items, base.items.length);
  return { format: base.format, items };
}

/**
 * `normalize(raws, base.format, { stored: true })` for `base`'s raws with some replaced (held by reference), reading
 * only the replacements: an item depends on its element alone, and its pairing on the call and result ids of the
 * elements, so a replacement with the same ids keeps every pairing (it takes its original's answers).
 * @returns the new transcript, or undefined when a replacement changes ids or cannot be read (read everything again).
 */
export function replaceItems(
  base: Transcript,
  replaced: readonly { index: number; raw: unknown }[]
): Transcript | undefined {
  const adapter = adapterFor(base.format);
  const items = base.items.slice();
  for (const { index, raw } of replaced) {
    const old = items[index];
    let item: Item;
    try {
      if (!old) return undefined;
      item = adapter.toItem(raw, index);
    } catch {
      return undefined;
    }
    if (!sameIds(old, item)) return undefined;
    if (old.answers !== undefined) item.answers = old.answers;
    if (old.moreAnswers !== undefined) item.moreAnswers = old.moreAnswers;
    items[index] = item;
  }
  pairsAs(items, base.items);
  return { format: base.format, items };
}

/** Whether two items make the same calls (ids and names, in order) and carry the same result ids. */
function sameIds(a: Item, b: Item): boolean {
  const more = (i: Item) => (i.moreResultsFor === undefined ? 'none' : JSON.stringify(i.moreResultsFor));
  return (
    a.resultFor === b.resultFor &&
    more(a) === more(b) &&
    a.calls.length === b.calls.length &&
    a.calls.every((c, k) => c.id === b.calls[k]!.id && c.name === b.calls[k]!.name)
  );
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
