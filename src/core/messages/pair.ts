/**
 * Pairing tool results with their calls. Real sessions reuse call ids (one corpus session reuses five), so a result
 * answers the nearest earlier call with its id that has no result yet, never "the call with that id" globally.
 */
import type { Answer, Item } from './types';
import { TranscriptValidationError } from './validate';

/** An open (not yet answered) call: where it is. */
interface OpenCall {
  itemIndex: number;
  callIndex: number;
  name: string;
  answered: boolean;
}

/** A call no result of the items before it answers, with its id. */
interface UnansweredCall {
  id: string;
  itemIndex: number;
  callIndex: number;
  name: string;
}

/**
 * The calls a paired items array leaves unanswered, in order, by array identity: derived from the pairing (never
 * carried), so a transcript extended by an append pairs only the new items (`pairAppended`). An array handed to
 * `pairAppended` or read by `unansweredCalls` is not changed afterwards (transcripts are replaced, not edited).
 */
const unansweredAfter = new WeakMap<readonly Item[], readonly UnansweredCall[]>();

/** Results that could not be paired (lenient mode): their item indices and why. */
export interface Unpaired {
  index: number;
  kind: 'unknown-call' | 'answered-twice';
}

/**
 * Fills `answers` on every tool result, in place, walking the items in order.
 * @param strict when true, an unpairable result throws; when false it is left without `answers` and reported.
 * @returns the results that were left unpaired (always empty in strict mode).
 * @throws TranscriptValidationError (`unknown-call`, `answered-twice`) in strict mode.
 */
export function pairResults(items: Item[], strict: boolean): Unpaired[] {
  const byId = new Map<string, OpenCall[]>();
  const unpaired: Unpaired[] = [];
  for (const item of items) {
    item.calls.forEach((call, callIndex) => {
      const list = byId.get(call.id) ?? [];
      list.push({ itemIndex: item.index, callIndex, name: call.name, answered: false });
      byId.set(call.id, list);
    });
    const ids = item.resultFor === undefined ? [] : [item.resultFor, ...(item.moreResultsFor ?? [])];
    const more: Answer[] = [];
    ids.forEach((id, k) => {
      const answer = pairOne(byId, item, id, strict, unpaired);
      if (answer && k === 0) item.answers = answer;
      else if (answer) more.push(answer);
    });
    if (ids.length > 1) item.moreAnswers = more;
  }
  return unpaired;
}

/**
 * Pairs one result id of `item` with the nearest earlier unanswered call with that id.
 * @returns the answer, or undefined (lenient mode) when none fits; the miss is pushed to `unpaired`.
 * @throws TranscriptValidationError in strict mode when none fits.
 */
function pairOne(
  byId: Map<string, OpenCall[]>,
  item: Item,
  id: string,
  strict: boolean,
  unpaired: Unpaired[]
): Answer | undefined {
  const candidates = byId.get(id);
  let open: OpenCall | undefined;
  if (candidates) {
    for (let k = candidates.length - 1; k >= 0; k--) {
      if (!candidates[k]!.answered) {
        open = candidates[k];
        break;
      }
    }
  }
  if (!open) {
    const kind = candidates ? 'answered-twice' : 'unknown-call';
    if (strict) throw new TranscriptValidationError(item.index, problemOf(id, kind), kind);
    unpaired.push({ index: item.index, kind });
    return undefined;
  }
  open.answered = true;
  return { callId: id, itemIndex: open.itemIndex, callIndex: open.callIndex, name: open.name };
}

/**
 * Pairs the results of `items` from `from` on exactly as `pairResults(items, true)` would, reading only those items:
 * results pair with the nearest earlier unanswered call, so the pairing of `items[0..from)` cannot change, and the
 * calls it leaves open are those of `base` (a paired array holding the same first `from` items).
 * @throws TranscriptValidationError (`unknown-call`, `answered-twice`) as `pairResults` in strict mode.
 */
export function pairAppended(base: readonly Item[], items: Item[], from: number): void {
  const open = [...unansweredCalls(base)];
  for (let i = from; i < items.length; i++) {
    const item = items[i]!;
    item.calls.forEach((call, callIndex) =>
      open.push({ id: call.id, itemIndex: item.index, callIndex, name: call.name })
    );
    const ids = item.resultFor === undefined ? [] : [item.resultFor, ...(item.moreResultsFor ?? [])];
    const more: Answer[] = [];
    ids.forEach((id, k) => {
      let at = open.length - 1;
      while (at >= 0 && open[at]!.id !== id) at--;
      if (at < 0) throw unpairable(items, i, id);
      const [call] = open.splice(at, 1);
      const answer = { callId: id, itemIndex: call!.itemIndex, callIndex: call!.callIndex, name: call!.name };
      if (k === 0) item.answers = answer;
      else more.push(answer);
    });
    if (ids.length > 1) item.moreAnswers = more;
  }
  unansweredAfter.set(items, open);
}

/** The strict-mode error for a result of `items[at]` with call id `id` that no open call before it has. */
function unpairable(items: readonly Item[], at: number, id: string): TranscriptValidationError {
  const called = items.slice(0, at + 1).some((it) => it.calls.some((c) => c.id === id));
  const kind = called ? 'answered-twice' : 'unknown-call';
  return new TranscriptValidationError(items[at]!.index, problemOf(id, kind), kind);
}

/**
 * The calls of a paired items array that no result in it answers, in order (remembered per array, see
 * `unansweredAfter`).
 */
export function unansweredCalls(items: readonly Item[]): readonly UnansweredCall[] {
  let open = unansweredAfter.get(items);
  if (!open) {
    const answered = answeredCalls(items);
    const list: UnansweredCall[] = [];
    for (const item of items) {
      item.calls.forEach((call, c) => {
        if (!answered.has(`${item.index}:${c}`))
          list.push({ id: call.id, itemIndex: item.index, callIndex: c, name: call.name });
      });
    }
    unansweredAfter.set(items, (open = list));
  }
  return open;
}

/** The strict-mode message for a result with call id `id` that pairs with no call. */
function problemOf(id: string, kind: Unpaired['kind']): string {
  return kind === 'unknown-call'
    ? `tool result for call id '${id}', but no earlier call has that id`
    : `tool result for call id '${id}', but every earlier call with that id is already answered (call answered twice)`;
}

/** Remembers for `items` the calls `same` leaves open: `items` is a paired array whose pairing is the same. */
export function pairsAs(items: readonly Item[], same: readonly Item[]): void {
  const open = unansweredAfter.get(same);
  if (open) unansweredAfter.set(items, open);
}

/** Every call an item answers: `answers`, then `moreAnswers` (an Anthropic turn holding several results). */
export function answersOf(item: Item): Answer[] {
  return item.answers ? [item.answers, ...(item.moreAnswers ?? [])] : (item.moreAnswers ?? []);
}

/** The calls a transcript's results answer, as `${itemIndex}:${callIndex}` keys. */
export function answeredCalls(items: readonly Item[]): Set<string> {
  return new Set(items.flatMap((it) => answersOf(it).map((a) => `${a.itemIndex}:${a.callIndex}`)));
}

/**
 * The pairing fields of an element holding the results with call ids `ids`, in order: the first in `resultFor`, the
 * rest in `moreResultsFor` (set only when there are several).
 * @returns no field for an empty list.
 */
export function resultIdFields(ids: readonly string[]): Pick<Item, 'resultFor' | 'moreResultsFor'> {
  if (ids.length === 0) return {};
  return ids.length > 1 ? { resultFor: ids[0], moreResultsFor: ids.slice(1) } : { resultFor: ids[0] };
}
