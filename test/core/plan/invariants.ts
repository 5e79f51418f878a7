/** An independent check of a plan against the safety rules, for the property tests. */
import type { Transcript } from '../../../src/core/messages/types';
import type { FoldPlan } from '../../../src/core/plan/types';

/** @returns the broken rules, empty when the plan is safe. */
export function planProblems(t: Transcript, p: FoldPlan): string[] {
  const problems: string[] = [];
  const n = t.items.length;
  const instr = t.items.filter((i) => i.role === 'instructions').map((i) => i.index);
  if (!p.fold && p.kind === 'none') {
    if (p.keep.join() !== [...Array(n).keys()].join()) problems.push('a declining plan must keep everything in order');
    return problems;
  }
  const kept = new Set(p.keep);
  if (kept.size !== p.keep.length) problems.push('keep names an item twice');
  if (p.keep.slice(0, instr.length).join() !== instr.join()) problems.push('instructions are not first in keep');
  if (p.summarize.some((i) => t.items[i]!.role === 'instructions')) problems.push('an instructions item is summarised');
  const parts = [...p.instructions, ...p.pinned, ...p.tail, ...p.dropped].sort((a, b) => a - b);
  if (parts.join() !== [...Array(n).keys()].join())
    problems.push('instructions/pinned/tail/dropped do not partition the items');
  const answered = new Set<string>();
  for (const it of t.items) {
    // An element may answer several calls (Anthropic, Gemini, AI SDK): every one of them counts.
    for (const a of [...(it.answers ? [it.answers] : []), ...(it.moreAnswers ?? [])]) {
      answered.add(`${a.itemIndex}:${a.callIndex}`);
      if (kept.has(it.index) !== kept.has(a.itemIndex))
        problems.push(`result ${it.index} and its call ${a.itemIndex} are split`);
    }
  }
  for (const it of t.items) {
    if (!kept.has(it.index) && it.calls.some((_, c) => !answered.has(`${it.index}:${c}`)))
      problems.push(`pending call ${it.index} folded`);
    if (it.role === 'reasoning' && it.index + 1 < n && kept.has(it.index) !== kept.has(it.index + 1)) {
      problems.push(`reasoning ${it.index} split from the item after it`);
    }
  }
  // Kept items other than instructions and pins keep their transcript order.
  const tail = p.keep.slice(instr.length + p.pinned.length);
  if (tail.some((v, k) => k > 0 && v < tail[k - 1]!)) problems.push('tail out of order');
  return problems;
}
