/**
 * fast-check generators of agent conversations with the awkward parts real sessions have: parallel calls answered out
 * of order, call ids reused, calls still pending at the end, reasoning items, system/developer messages in the
 * middle. Rendered as Responses items (reasoning included) or chat messages (no reasoning in that format).
 */
import fc from 'fast-check';
import { KEEP_POLICIES, type CompactionOptions } from '../../../src/core/plan/options';

/** One step of a turn. */
type Step =
  | { kind: 'say'; text: string; reasoning: boolean }
  | { kind: 'calls'; ids: string[]; order: number[]; reasoning: boolean; answered: boolean[] }
  | { kind: 'system'; text: string };

export interface GenConversation {
  system: boolean;
  turns: { user: string; steps: Step[] }[];
}

const word = fc.constantFrom('alpha', 'beta', 'gamma', 'delta', 'parser.py', 'id-42', 'ok');
const idPool = fc.constantFrom('c0', 'c1', 'c2', 'c3');

const callStep: fc.Arbitrary<Step> = fc.uniqueArray(idPool, { minLength: 1, maxLength: 4 }).chain((ids) =>
  fc.record({
    kind: fc.constant('calls' as const),
    ids: fc.constant(ids),
    order: fc.shuffledSubarray(
      ids.map((_, k) => k),
      { minLength: ids.length, maxLength: ids.length }
    ),
    reasoning: fc.boolean(),
    answered: fc.constant(ids.map(() => true)),
  })
);

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 3, arbitrary: callStep },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('say' as const), text: word, reasoning: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('system' as const), text: word }) }
);

/** A conversation; the last call step may leave some calls pending. */
export const conversation: fc.Arbitrary<GenConversation> = fc
  .record({
    system: fc.boolean(),
    turns: fc.array(fc.record({ user: word, steps: fc.array(step, { maxLength: 8 }) }), { minLength: 1, maxLength: 8 }),
    pendingMask: fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
  })
  .map(({ system, turns, pendingMask }) => {
    const last = turns[turns.length - 1]!;
    const lastStep = last.steps[last.steps.length - 1];
    if (lastStep?.kind === 'calls') lastStep.answered = lastStep.ids.map((_, k) => !pendingMask[k]);
    return { system, turns };
  });

/** Responses items. Reused ids are safe to pair only by position, which is the point. */
export function toResponses(c: GenConversation): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  if (c.system) out.push({ type: 'message', role: 'developer', content: 'be careful' });
  for (const turn of c.turns) {
    out.push({ type: 'message', role: 'user', content: [{ type: 'input_text', text: turn.user }] });
    for (const s of turn.steps) {
      if (s.kind === 'system') out.push({ type: 'message', role: 'system', content: s.text });
      else if (s.kind === 'say') {
        if (s.reasoning) out.push({ type: 'reasoning', summary: [{ type: 'summary_text', text: 'hmm' }] });
        out.push({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: s.text }] });
      } else {
        if (s.reasoning) out.push({ type: 'reasoning', summary: [] });
        for (const id of s.ids) out.push({ type: 'function_call', call_id: id, name: `tool_${id}`, arguments: '{}' });
        for (const k of s.order) {
          if (s.answered[k]) out.push({ type: 'function_call_output', call_id: s.ids[k], output: `result ${k}` });
        }
      }
    }
  }
  return out;
}

/** Chat messages (reasoning steps dropped: the format has none). */
export function toChat(c: GenConversation): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  if (c.system) out.push({ role: 'system', content: 'be careful' });
  for (const turn of c.turns) {
    out.push({ role: 'user', content: turn.user });
    for (const s of turn.steps) {
      if (s.kind === 'system') out.push({ role: 'developer', content: s.text });
      else if (s.kind === 'say') out.push({ role: 'assistant', content: s.text });
      else {
        out.push({
          role: 'assistant',
          content: null,
          tool_calls: s.ids.map((id) => ({ id, type: 'function', function: { name: `tool_${id}`, arguments: '{}' } })),
        });
        for (const k of s.order)
          if (s.answered[k]) out.push({ role: 'tool', tool_call_id: s.ids[k], content: `result ${k}` });
      }
    }
  }
  return out;
}

/** The option ranges a property run picks itself; {@link foldOptions} adds the ones all runs vary alike. */
export interface OwnOptionRanges {
  budget: fc.Arbitrary<number>;
  triggerRatio: fc.Arbitrary<number>;
  keepLast: fc.Arbitrary<number>;
  pin: fc.Arbitrary<CompactionOptions['pin']>;
  filter?: fc.Arbitrary<CompactionOptions['filter']>;
}

/**
 * Fold options for a property run: every policy, 1–4 kept turns, 1–5 rounds, either rounds mode, with the run's own
 * ranges. The keys are generated in one fixed order, so a run with a fixed seed draws the same cases.
 * @returns the arbitrary
 */
export function foldOptions(own: OwnOptionRanges): fc.Arbitrary<CompactionOptions> {
  return fc.record({
    budget: own.budget,
    policy: fc.constantFrom(...KEEP_POLICIES),
    triggerRatio: own.triggerRatio,
    keepLast: own.keepLast,
    keepTurns: fc.integer({ min: 1, max: 4 }),
    maxRounds: fc.integer({ min: 1, max: 5 }),
    roundsMode: fc.constantFrom('compress' as const, 'truncate' as const),
    pin: own.pin,
    ...(own.filter ? { filter: own.filter } : {}),
  });
}
