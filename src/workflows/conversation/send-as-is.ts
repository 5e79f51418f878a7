/**
 * Whether a context goes out as it is stored, for the clients that cannot apply a format's send rules themselves: the
 * Python client prepares chat and Responses contexts itself and reads every other format through the `sendable`
 * query, which carries the whole context. Told that nothing would change, it sends its mirror instead.
 */
import { SendCache } from '../../core/messages/send-cache';
import type { ReadonlyCarriedState } from './carried-state';

/** One conversation's check, reading only the messages after the last context when that one went out unchanged. */
export class SendAsIsCheck {
  private readonly cache = new SendCache();

  /**
   * @returns true when the context is in a format other than chat and Responses and the `sendable` query would return
   *   it as it is (every call answered, results in call order); false otherwise, also for a call left without a
   *   result under `unanswered: 'error'` (the query reports it).
   */
  check(state: { carried: ReadonlyCarriedState; raws(): unknown[] }): boolean {
    const { format, settings } = state.carried;
    if (format === null || format === 'chat' || format === 'responses') return false;
    const raws = state.raws();
    try {
      const out = this.cache.prepare(raws, { format, unanswered: settings.unanswered });
      return out.length === raws.length && out.every((m, i) => m === raws[i]);
    } catch {
      return false;
    }
  }
}
