/**
 * Provider-usage calibration (pure; runs in workflow code). Our count is exact for the vocabulary, but the provider
 * may frame messages differently (tool calls, Responses items, images, other vocabularies), so when the caller
 * reports the provider's `usage.prompt_tokens` / `input_tokens` for a context we produced, we remember it:
 *
 * - the **anchor**: the reported total of that context and our count of it. While the context only grows, the
 *   estimate is that reported total plus our exact count of what was added since (scaled by the ratio), which is
 *   what Codex and Gemini do with the server's count, combined with our exact delta;
 * - the **ratio** reported / estimated, an exponentially weighted average, applied to everything not anchored.
 *
 * Bounded: a report moves the ratio by at most a factor of 1 + {@link MAX_STEP}, the ratio stays within
 * [{@link MIN_RATIO}, {@link MAX_RATIO}], and the anchored total is clamped to within 1 + MAX_STEP of what the
 * previous ratio predicted. So one wild report (a cached-prompt discount, a typo, a different context) moves any
 * estimate by at most ×1.2, and a consistent signal still converges within a few reports.
 */

/** Calibration state: plain JSON data, stored in workflow state. */
export interface Calibration {
  /** Reported / estimated, smoothed and bounded. 1 means our count matched. */
  ratio: number;
  /** Reports taken into account. */
  samples: number;
  /** The last reported context: our count of it and the (bounded) reported total; null after a fold or rebase. */
  anchor: { estimated: number; reported: number } | null;
}

/** Lowest ratio ever applied: the provider never counts less than half of what we count. */
export const MIN_RATIO = 0.5;
/** Highest ratio ever applied. */
export const MAX_RATIO = 2;
/** Largest relative move of the ratio (and of the anchored total against the previous ratio) per report: 20%. */
export const MAX_STEP = 0.2;
/** Weight of a new observation in the exponentially weighted average. */
export const EWMA_ALPHA = 0.3;

const clamp = (x: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, x));

/**
 * Takes a provider report for a context we counted into account.
 * @param calibration the current state, or null for none.
 * @param usage `estimated`: our count of the context that was sent; `reported`: the provider's input tokens for it.
 * @returns the new state; the input unchanged (or a fresh neutral state) when either number is not a positive
 *   finite number, since a missing or zero usage field says nothing about our count.
 */
export function recordUsage(
  calibration: Calibration | null,
  usage: { estimated: number; reported: number }
): Calibration {
  const current: Calibration = calibration ?? { ratio: 1, samples: 0, anchor: null };
  const { estimated, reported } = usage;
  if (!(Number.isFinite(estimated) && estimated > 0 && Number.isFinite(reported) && reported > 0)) return current;
  const previous = current.ratio;
  const observed = clamp(reported / estimated, MIN_RATIO, MAX_RATIO);
  const smoothed = previous + EWMA_ALPHA * (observed - previous);
  const ratio = clamp(clamp(smoothed, previous / (1 + MAX_STEP), previous * (1 + MAX_STEP)), MIN_RATIO, MAX_RATIO);
  const expected = estimated * previous;
  const anchored = clamp(reported, expected / (1 + MAX_STEP), expected * (1 + MAX_STEP));
  return { ratio, samples: current.samples + 1, anchor: { estimated, reported: anchored } };
}

/**
 * The calibrated estimate of a context whose exact count is `counted`.
 * @returns `counted` without calibration; with an anchor and a context at least as large as the anchored one,
 *   the anchored total plus the growth since, scaled by the ratio; otherwise `counted × ratio`. Rounded up.
 */
export function applyCalibration(calibration: Calibration | null, counted: number): number {
  if (!calibration) return counted;
  const { ratio, anchor } = calibration;
  if (anchor && counted >= anchor.estimated) return Math.ceil(anchor.reported + (counted - anchor.estimated) * ratio);
  return Math.ceil(counted * ratio);
}

/**
 * Forgets the anchor and keeps the ratio: call after a fold (or any change that is not an append), when the last
 * reported context is no longer a prefix of the current one.
 * @returns a copy without anchor, or null for null.
 */
export function dropAnchor(calibration: Calibration | null): Calibration | null {
  return calibration ? { ...calibration, anchor: null } : null;
}
