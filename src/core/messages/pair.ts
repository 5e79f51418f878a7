/**
 * Pairing tool results with their calls. Real sessions reuse call ids (one corpus session reuses five), so a result
 * answers the nearest earlier call with its id that has no result yet, never "the call with that id" globally.
 */
import type { CallAnswer, Item } from './types';
import { TranscriptValidationError } from './validate';

/** An open (not yet answered) call: where it is. */
interface OpenCall {
  itemIndex: number;
  callIndex: number;
  name: string;
  answered: boolean;
}

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
    const ids = item.resultsFor ?? (item.resultFor === undefined ? [] : [item.resultFor]);
    const found: CallAnswer[] = [];
    for (const id of ids) {
      const answer = pairOne(byId, id, item.index, strict);
      if (answer) found.push(answer);
      else if (unpaired.at(-1)?.index !== item.index) {
        unpaired.push({ index: item.index, kind: unpairedKind(byId, id) });
      }
    }
    // Pairing is redone in place on a grown transcript: set every field afresh.
    if (found.length > 0) item.answers = found[0];
    else delete item.answers;
    if (found.length > 1) item.alsoAnswers = found.slice(1);
    else delete item.alsoAnswers;
  }
  return unpaired;
}

/** Why a result with call id `id` found no open call. */
function unpairedKind(byId: Map<string, OpenCall[]>, id: string): Unpaired['kind'] {
  return byId.has(id) ? 'answered-twice' : 'unknown-call';
}

/**
 * Pairs one result with the nearest earlier open call with its id, marking the call answered.
 * @returns the answer, or undefined (lenient mode) when no open call has that id.
 * @throws TranscriptValidationError (`unknown-call`, `answered-twice`) in strict mode.
 */
function pairOne(byId: Map<string, OpenCall[]>, id: string, index: number, strict: boolean): CallAnswer | undefined {
  const candidates = byId.get(id) ?? [];
  let open: OpenCall | undefined;
  for (let k = candidates.length - 1; k >= 0 && !open; k--) if (!candidates[k]!.answered) open = candidates[k];
  if (!open) {
    if (!strict) return undefined;
    const kind = unpairedKind(byId, id);
    throw new TranscriptValidationError(
      index,
      kind === 'unknown-call'
        ? `tool result for call id '${id}', but no earlier call has that id`
        : `tool result for call id '${id}', but every earlier call with that id is already answered (call answered twice)`,
      kind
    );
  }
  open.answered = true;
  return { callId: id, itemIndex: open.itemIndex, callIndex: open.callIndex, name: open.name };
}
