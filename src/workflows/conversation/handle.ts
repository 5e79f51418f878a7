/**
 * `handle(name, fn, steps)`: the one wrapper every conversation handler is registered through. Nothing a handler or
 * its validator throws may fail a workflow task (that wedges the conversation until a fixed worker is deployed), so
 * both leave only as `ApplicationFailure`s (`toFailure`). The steps run outermost first: publish the UI's details
 * after the call, observe it, wait for its summarizer profile, then take the lock.
 */
import { guardedValidator, toFailure } from './guard';
import { observePrepare, startPrepareObservation } from './observe';
import { withoutIdleAwaits } from '../shared/idle-awaits';

/** Runs a handler's body: under the conversation's lock, counted against the run's update cap, or only counted. */
export type Lock = <T>(fn: () => Promise<T>) => Promise<T>;

/** What wraps one handler; only `publish` is always there. */
export interface HandleSteps<A extends unknown[]> {
  /** Refreshes what the Temporal UI shows, after the call whether it succeeded or not (no history event). */
  publish: () => void;
  /** The synchronous update validator: its refusal reaches the caller typed, and nothing reaches history. */
  validate?: (...args: A) => void;
  /** Reports when the call started and finished (`prepare`'s latency metric). */
  observed?: boolean;
  /** Holds the call until the summarizer profile its settings name is known to the worker (`ProfileCheck`). */
  gate?: <R>(args: A, run: () => Promise<R>) => Promise<R>;
  /** Serialises (or only counts) the call. @default runs at once */
  lock?: Lock;
}

/**
 * Wraps `fn` with its steps.
 * @returns the handler and the options to register it with (`setHandler(def, ...handle(…))`).
 */
export function handle<A extends unknown[], R>(
  name: string,
  fn: (...args: A) => Promise<R>,
  steps: HandleSteps<A>
): [(...args: A) => Promise<R>, { validator?: (...args: A) => void }] {
  const { publish, validate, observed, gate, lock } = steps;
  const handler = async (...args: A): Promise<R> => {
    const locked = (): Promise<R> => (lock ? lock(() => fn(...args)) : fn(...args));
    const gated = (): Promise<R> => (gate ? gate(args, locked) : locked());
    if (!withoutIdleAwaits()) {
      try {
        return await (observed ? observePrepare(gated) : gated()).finally(publish);
      } catch (err) {
        throw toFailure(err, name);
      }
    }
    // The same steps in one async function: each wrapper of its own was one more promise per call.
    const observation = observed ? startPrepareObservation() : undefined;
    let ok = false;
    try {
      const result = await gated();
      ok = true;
      return result;
    } catch (err) {
      throw toFailure(err, name);
    } finally {
      observation?.finish(ok);
      publish();
    }
  };
  return [handler, validate ? { validator: guardedValidator(name, validate) } : {}];
}
