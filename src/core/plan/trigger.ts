/** The fold trigger: fold when the counted tokens reach `floor(budget × triggerRatio)`. */
import type { ResolvedOptions } from './options';

/** `floor(budget × ratio)`, the fold threshold. */
export function triggerThreshold(budget: number, ratio: number): number {
  return Math.floor(budget * ratio);
}

/**
 * Whether the trigger fires.
 * @returns undefined when it fires, otherwise the reason it does not.
 */
export function triggerDecline(
  total: number,
  threshold: number,
  count: number,
  minMessages: number
): string | undefined {
  if (count < minMessages) return `only ${count} item(s); at least ${minMessages} are needed to fold`;
  if (total < threshold) return `${total} tokens is under the trigger of ${threshold}`;
  return undefined;
}

/**
 * The trigger check a plan starts with: the `rounds` policy fires on the round count (only the item count is checked
 * here), every other policy on tokens.
 * @param total the transcript's counted tokens plus its fixed tokens.
 * @returns undefined when planning goes on, otherwise why nothing is folded.
 */
export function triggerReason(
  o: Pick<ResolvedOptions, 'policy' | 'budget' | 'triggerRatio' | 'minMessages'>,
  total: number,
  count: number
): string | undefined {
  return triggerDecline(
    o.policy === 'rounds' ? Infinity : total,
    triggerThreshold(o.budget, o.triggerRatio),
    count,
    o.minMessages
  );
}
