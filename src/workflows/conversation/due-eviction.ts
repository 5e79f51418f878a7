/**
 * The eviction decision, pure: whether stale tool outputs of the live context should become pointers now, and
 * which. `ConversationHandlers` counts the replacements (an activity) and commits them with `ConversationState.commitEviction`.
 */
import { evictStaleToolResults } from '../../core/fold/evict';
import { triggerThreshold } from '../../core/plan/trigger';
import type { ConversationState } from './conversation-state';

/** Tool outputs to replace by pointers: the position of each and its replacement. */
export interface DueEviction {
  replaced: { index: number; raw: unknown }[];
}

/**
 * When eviction is enabled (`evictAtRatio`), it is due at the start of a user turn with the context at or above that
 * share of the budget, and inside a turn once the fold trigger is reached, before folding (evicting first and
 * compacting only if that is not enough keeps more verbatim: agent sessions have few user turns, many tool calls).
 * @param firstNew index of the first message of the append just stored.
 * @returns the outputs to replace; `null` when eviction is off, not due, or finds nothing stale.
 */
export function dueEviction(state: ConversationState, firstNew: number): DueEviction | null {
  const s = state.carried;
  const ratio = s.settings.evictAtRatio ?? 0;
  if (!(ratio > 0) || !s.format) return null;
  const transcript = state.transcript();
  const estimate = state.estimatedTokens();
  const turnStart = transcript.items.slice(firstNew).some((item) => item.turnStart);
  const atTrigger = estimate >= triggerThreshold(s.settings.budget, s.settings.triggerRatio);
  if (!(atTrigger || (turnStart && estimate >= ratio * s.settings.budget))) return null;
  const { raws, offloaded } = evictStaleToolResults(transcript, { budget: s.settings.budget, hotPaths: s.hotPaths });
  if (offloaded.length === 0) return null;
  return { replaced: offloaded.map((o) => ({ index: o.index, raw: raws[o.index] })) };
}
