/**
 * The safety rules a folded context must satisfy, checked on the plan's index lists against the original
 * transcript's items (whose pairing `normalize` already worked out), so no second normalisation of the result is
 * needed.
 */
import { answersOf } from '../messages/answers';
import type { Item, Transcript } from '../messages/types';
import type { FoldViolation } from './errors';
import { foldOrder, type FoldLayout } from './layout';

/**
 * Checks a fold's layout against the safety rules: every instructions item is kept and comes first; a call and all
 * its results are on the same side of the cut, the call first; a call not answered yet is never folded; a reasoning
 * item is on the same side as the call it leads into; every index is a real item, named once.
 * @returns the violations found, empty when the folded context is safe.
 */
export function checkFoldResult(input: { transcript: Transcript; plan: FoldLayout }): FoldViolation[] {
  const { items } = input.transcript;
  const { front, after } = foldOrder(input.transcript, input.plan);
  const violations: FoldViolation[] = [];
  // Position of each kept item in the folded context; the summary sits between `front` and `after`.
  const position = new Map<number, number>();
  const order = [...front, ...after];
  order.forEach((index, pos) => {
    if (!Number.isInteger(index) || index < 0 || index >= items.length || position.has(index)) {
      violations.push({ kind: 'bad-index', index, message: `plan names index ${index} out of range or twice` });
      return;
    }
    position.set(index, pos + (pos >= front.length ? 1 : 0));
  });
  const summaryPosition = front.length;

  // Which calls have results, for the pending-call rule: `${itemIndex}:${callIndex}`.
  const answered = new Set<string>();
  for (const item of items) {
    for (const a of answersOf(item)) {
      answered.add(`${a.itemIndex}:${a.callIndex}`);
      const callPos = position.get(a.itemIndex);
      const resultPos = position.get(item.index);
      if ((callPos === undefined) !== (resultPos === undefined)) {
        violations.push({
          kind: 'call-split',
          index: item.index,
          message: `tool result ${item.index} (call ${a.callId}) is ${resultPos === undefined ? 'folded' : 'kept'} but its call at ${a.itemIndex} is ${callPos === undefined ? 'folded' : 'kept'}`,
        });
      } else if (callPos !== undefined && resultPos !== undefined && resultPos < callPos) {
        violations.push({
          kind: 'result-before-call',
          index: item.index,
          message: `tool result ${item.index} would come before its call at ${a.itemIndex}`,
        });
      }
    }
  }

  let seenOther = false;
  for (const index of order) {
    const item = items[index];
    if (!item) continue;
    const pos = position.get(index) ?? 0;
    if (item.role === 'instructions' && (seenOther || pos > summaryPosition)) {
      violations.push({ kind: 'instructions-not-first', index, message: `instructions item ${index} is not first` });
    } else if (item.role !== 'instructions' && pos < summaryPosition) {
      violations.push({
        kind: 'instructions-not-first',
        index,
        message: `item ${index} is placed with the instructions but is a ${item.role} item`,
      });
    }
    if (item.role !== 'instructions') seenOther = true;
  }

  for (const item of items) {
    const kept = position.has(item.index);
    if (item.role === 'instructions' && !kept) {
      violations.push({
        kind: 'instructions-dropped',
        index: item.index,
        message: `instructions item ${item.index} is folded`,
      });
    }
    if (!kept && item.calls.some((_, c) => !answered.has(`${item.index}:${c}`))) {
      violations.push({
        kind: 'pending-call-folded',
        index: item.index,
        message: `item ${item.index} makes a call with no result yet and is folded`,
      });
    }
    if (item.role === 'reasoning') {
      const owner = callOwner(items, item.index);
      if (owner !== undefined && kept !== position.has(owner)) {
        violations.push({
          kind: 'reasoning-split',
          index: item.index,
          message: `reasoning item ${item.index} and the call at ${owner} it leads into are on different sides of the cut`,
        });
      }
    }
  }
  return violations;
}

/** The item making calls that a run of reasoning items starting at `index` leads into, if the run ends in one. */
function callOwner(items: readonly Item[], index: number): number | undefined {
  for (let i = index + 1; i < items.length; i++) {
    const next = items[i]!;
    if (next.role === 'reasoning') continue;
    return next.calls.length > 0 ? i : undefined;
  }
  return undefined;
}
