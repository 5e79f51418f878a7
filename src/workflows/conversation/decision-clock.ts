/**
 * The time a conversation's fold decisions and fold records read. Workflow time is a task's start as its worker was
 * told it, and a replay can be told another for the same point of the history (a retried or speculative task stored
 * with another start, a local activity resolved in a later task), so a decision comparing times (the back-off's wait)
 * could go the other way on a replay and fail the task with a non-determinism error. Within a step, decisions read
 * instead the wall time the step's `ingest` local activity recorded: its result is kept in history, so every replay
 * reads the same.
 */
export class DecisionClock {
  private recorded: number | undefined;

  /**
   * Uses `at` until {@link release}.
   * @param at epoch milliseconds; undefined (a history recorded before `ingest` returned it) keeps workflow time.
   */
  hold(at: number | undefined): void {
    this.recorded = typeof at === 'number' && Number.isFinite(at) ? at : undefined;
  }

  /** Ends a step: decisions outside steps (a background fold's activity completing) read workflow time. */
  release(): void {
    this.recorded = undefined;
  }

  /** @returns the held time within a step, else workflow time (`Date.now()` in workflow code). */
  now(): number {
    return this.recorded ?? Date.now();
  }
}
