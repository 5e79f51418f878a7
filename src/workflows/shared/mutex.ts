import { condition } from '@temporalio/workflow';

/**
 * First-come, first-served mutual exclusion for update and signal handlers. Handlers interleave at every `await`
 * (an activity call), so two appends could otherwise both read the transcript before either writes it. Tickets make
 * the order deterministic on replay.
 */
export class Mutex {
  private issued = 0;
  private serving = 0;

  /** @param takeFreeAtOnce whether a free lock is taken without awaiting a condition. @default never */
  constructor(private readonly takeFreeAtOnce: () => boolean = () => false) {}

  /** True while a holder runs or waiters queue. */
  get busy(): boolean {
    return this.issued !== this.serving;
  }

  /** Runs `fn` once every earlier caller has finished. @returns what `fn` returns. */
  async run<T>(fn: () => T | Promise<T>): Promise<T> {
    const ticket = this.issued++;
    if (this.serving !== ticket || !this.takeFreeAtOnce()) await condition(() => this.serving === ticket);
    try {
      return await fn();
    } finally {
      this.serving++;
    }
  }
}
