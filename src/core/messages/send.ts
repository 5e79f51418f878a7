/**
 * Send-time normalisation (tool results in call order, as Codex's `ensure_call_outputs_present`): the context handed to a
 * provider has each call's results in call order right after the calls, and no call left without a result. Works on
 * raws so it can run on a folded context, whatever produced it.
 */
import type { FormatAdapter } from './format-adapter';
import { adapterFor } from './adapter-for-format';
import { detectFormat } from './detect';
import { answeredCalls, pairResults } from './pair';
import type { Item, MessageFormat } from './types';
import { TranscriptValidationError } from './validate';

/** What to do with a call that has no result when the context is sent. */
export type UnansweredPolicy = 'error' | 'synthesize';

/** Options of {@link prepareForSend}. */
export interface SendOptions {
  /** Detected from the elements when omitted. */
  format?: MessageFormat;
  /** `synthesize` inserts a deterministic "not run" result after the call's results (Codex); `error` throws. @default 'error' */
  unanswered?: UnansweredPolicy;
}

/** Reads elements without the strict pairing checks: results that pair with nothing are simply left unpaired. */
function readLenient(messages: readonly unknown[], adapter: FormatAdapter): Item[] {
  const items = messages.map((raw, i) => adapter.toItem(raw, i));
  pairResults(items, false);
  return items;
}

/** Sort key of a result: its call's position, unmatched results after every matched one (stable). */
function callOrder(item: Item): number {
  return item.answers ? item.answers.itemIndex * 65536 + item.answers.callIndex : Number.MAX_SAFE_INTEGER;
}

/**
 * Reorders every contiguous run of tool results into the order of the calls they answer; results that answer no
 * call keep their relative order after the matched ones. Idempotent.
 * @returns the input array itself when nothing moves, otherwise a new array of the same raws.
 * @throws TranscriptValidationError on a malformed element.
 */
export function orderToolResults<Raw>(messages: readonly Raw[], format?: MessageFormat): readonly Raw[] {
  const adapter = adapterFor(format ?? detectFormat(messages));
  // Anthropic results are blocks of one user turn, which the API merges with the user turns next to it: nothing to order.
  if (adapter.format === 'anthropic') return messages;
  return orderRuns(messages, readLenient(messages, adapter));
}

/** {@link orderToolResults} over the items read (and paired) from `messages`. */
function orderRuns<Raw>(messages: readonly Raw[], items: readonly Item[]): readonly Raw[] {
  let out: Raw[] | undefined;
  for (let start = 0; start < items.length;) {
    if (items[start]!.role !== 'tool') {
      start++;
      continue;
    }
    let end = start;
    while (end < items.length && items[end]!.role === 'tool') end++;
    const block = items.slice(start, end);
    const sorted = [...block].sort((a, b) => callOrder(a) - callOrder(b));
    if (sorted.some((it, k) => it !== block[k])) {
      out ??= [...messages];
      sorted.forEach((it, k) => (out![start + k] = it.raw as Raw));
    }
    start = end;
  }
  return out ?? messages;
}

/**
 * Where a synthetic result for a call made by item `at` goes: after the calling item, (Responses only) the call items
 * that directly follow it, since parallel calls are separate items there, and the run of results after them.
 */
function insertionPoint(items: readonly Item[], at: number, format: MessageFormat): number {
  if (format === 'anthropic') return at + 1; // first in the user turn the API merges it into
  let j = at + 1;
  if (format === 'responses') while (j < items.length && items[j]!.calls.length > 0) j++;
  while (j < items.length && items[j]!.role === 'tool') j++;
  return j;
}

/**
 * The context as it should be sent: every call answered (per `unanswered`), results in call order.
 * @returns a new array of raws (kept raws are the caller's objects; synthetic results are new).
 * @throws TranscriptValidationError (`unanswered-call`) with `unanswered: 'error'` when a call has no result;
 *   TranscriptValidationError on a malformed element.
 */
export function prepareForSend(messages: readonly unknown[], options: SendOptions = {}): unknown[] {
  const adapter = adapterFor(options.format ?? detectFormat(messages));
  return sent(messages, adapter, options.unanswered ?? 'error').out;
}

/**
 * {@link prepareForSend} with the adapter chosen.
 * @returns the context to send, and whether it is `messages` unchanged (no result inserted, none moved).
 */
export function sent(
  messages: readonly unknown[],
  adapter: FormatAdapter,
  unanswered: UnansweredPolicy
): { out: unknown[]; unchanged: boolean } {
  const items = readLenient(messages, adapter);
  const answered = answeredCalls(items);
  const inserts = new Map<number, unknown[]>();
  for (const item of items) {
    item.calls.forEach((call, c) => {
      if (answered.has(`${item.index}:${c}`)) return;
      if (unanswered === 'error') {
        throw new TranscriptValidationError(
          item.index,
          `call '${call.id}' (${call.name}) has no result at send time`,
          'unanswered-call'
        );
      }
      const at = insertionPoint(items, item.index, adapter.format);
      const list = inserts.get(at) ?? [];
      list.push(adapter.notRunResult(call));
      inserts.set(at, list);
    });
  }
  if (inserts.size === 0) {
    // Read once: with nothing inserted, the items read above are the ones to order.
    const ordered = adapter.format === 'anthropic' ? messages : orderRuns(messages, items);
    return { out: [...ordered], unchanged: ordered === messages };
  }
  const out: unknown[] = [];
  for (let i = 0; i <= messages.length; i++) {
    out.push(...(inserts.get(i) ?? []));
    if (i < messages.length) out.push(messages[i]);
  }
  return { out: [...orderToolResults(out, adapter.format)], unchanged: false };
}
