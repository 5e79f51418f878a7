/** Errors thrown while building a fold. */

/** One broken safety rule in a folded context, naming the caller-array index it concerns. */
export interface FoldViolation {
  /**
   * - `instructions-dropped`: an instructions item is not in the folded context.
   * - `instructions-not-first`: an instructions item comes after the summary or a non-instructions item.
   * - `call-split`: a tool call is on one side of the cut and one of its results on the other.
   * - `result-before-call`: a kept result comes before the call it answers.
   * - `pending-call-folded`: a call with no result yet was folded away.
   * - `reasoning-split`: a reasoning item and the call it leads into are on different sides of the cut.
   * - `bad-index`: the plan names an index that is not in the transcript, or names one twice.
   */
  kind:
    | 'instructions-dropped'
    | 'instructions-not-first'
    | 'call-split'
    | 'result-before-call'
    | 'pending-call-folded'
    | 'reasoning-split'
    | 'bad-index';
  index: number;
  message: string;
}

/** Thrown by `applyFold` when the plan does not fold, or when the folded context would break a safety rule. */
export class FoldApplyError extends Error {
  override readonly name = 'FoldApplyError';
  /** What was wrong; empty when the plan itself declined to fold. */
  readonly violations: readonly FoldViolation[];

  constructor(message: string, violations: readonly FoldViolation[] = []) {
    super(message);
    this.violations = violations;
  }
}
