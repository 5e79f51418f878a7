/** The fold trigger: fold when the counted tokens reach `floor(budget × triggerRatio)`. */

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
