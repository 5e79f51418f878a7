/**
 * Checks a summarizer profile name against the worker's configuration when a caller chooses it (start settings,
 * `configure`), so an unknown profile is a clear error at once rather than a failed fold later. The workflow cannot
 * read the worker's configuration, so a local activity answers; a name found once is not asked again in the run.
 */
import { failure, FailureType } from '../../contract/failures';
import { local } from './local-activities';

/** The profile names checked in this run. */
export class ProfileCheck {
  /** One answer per name (concurrent calls share it, so they also keep their order); a refusal is asked again. */
  private readonly checks = new Map<string, Promise<void>>();
  /** The names the worker confirmed. */
  private readonly known = new Set<string>();
  /** The worker's answer for each name it refused last time it was asked. */
  private readonly refusals = new Map<string, string>();

  /** @returns why the worker refused `profile` when last asked, or undefined. */
  refusal(profile: string): string | undefined {
    return this.refusals.get(profile);
  }

  /**
   * Resolves when `profile` is '' (the worker's default) or configured on the worker.
   * @throws ApplicationFailure (type `InvalidSettings`, non-retryable) naming the profile and the configured ones.
   */
  require(profile: string): Promise<void> {
    if (profile === '') return Promise.resolve();
    let check = this.checks.get(profile);
    if (!check) {
      check = local.checkSummarizerProfile({ profile }).then((answer) => {
        if (answer.ok) {
          this.known.add(profile);
          this.refusals.delete(profile);
          return;
        }
        this.checks.delete(profile);
        this.refusals.set(profile, answer.message);
        throw failure(FailureType.invalidSettings, answer.message);
      });
      this.checks.set(profile, check);
    }
    return check;
  }

  /**
   * Runs `fn` once `profile` is known: at once (no extra await)
   * when it is '' or was checked before in this run.
   * @returns what `fn` returns.
   * @throws ApplicationFailure as {@link require} does, without running `fn`.
   */
  whenKnown<R>(profile: string, fn: () => Promise<R>): Promise<R> {
    if (profile === '' || this.known.has(profile)) return fn();
    return this.require(profile).then(fn);
  }
}

/** @returns the profile a settings patch chooses, or '' when it chooses none. */
export function profileOf(patch: unknown): string {
  if (typeof patch !== 'object' || patch === null) return '';
  const summarizer = (patch as { summarizer?: unknown }).summarizer;
  if (typeof summarizer !== 'object' || summarizer === null) return '';
  const profile = (summarizer as { profile?: unknown }).profile;
  return typeof profile === 'string' ? profile : '';
}
