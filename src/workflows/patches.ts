/**
 * The registry of workflow patch ids: every `patched(id)` / `deprecatePatch(id)` call in src/ names an id listed here
 * (`npm run lint` runs scripts/check-patches.ts, which fails on any other). The 1.0 compatibility baseline had none:
 * the recorded histories in test/histories were recorded by it; every entry below came after it. The lifecycle of
 * an entry (`patched` → `deprecatePatch` → removal) is in docs/development.md, "Replay compatibility".
 */

/** One behaviour change gated by a patch. */
export interface PatchEntry {
  /** The id given to `patched()` / `deprecatePatch()`: kebab-case, saying what changed. */
  id: string;
  /** When the gate was added (YYYY-MM-DD). */
  since: string;
  /** What changed and why the old behaviour must keep replaying. */
  why: string;
  /**
   * When the gate may move on: to `deprecatePatch` once no run older than the change can still be running (every
   * conversation started before it was closed or continued as new on a worker with the gate), and out of the code
   * one release after that.
   */
  retire: string;
}

/** Every patch id in use, oldest first. */
export const PATCHES: readonly PatchEntry[] = [
  {
    id: 'start-over-new-target',
    since: '2026-12-02',
    why:
      'a start whose triggerRatio is at or below the core 0.5 fold target but above the 0.25 new-conversation ' +
      'target was refused (the workflow failed); it now starts over the 0.25 target. A run that failed that way ' +
      'must still fail when replayed.',
    retire:
      'deprecatePatch once no run that failed such a start can be replayed (failed runs past the namespace ' +
      'retention); removed one release later',
  },
  {
    id: 'fold-record-activity',
    since: '2026-12-06',
    why:
      'fold records were written by a local activity inside the workflow task that built them; a task the server ' +
      'lost (a speculative update task during a persistence outage) still wrote its record, which could win over ' +
      'the one the conversation applied. They are now written by an ordinary activity, scheduled only from stored ' +
      'history. A run recorded with the local write must replay it.',
    retire:
      'deprecatePatch once every conversation started before it has closed or continued as new on a worker with ' +
      'the gate; removed one release later',
  },
  {
    id: 'step-without-idle-awaits',
    since: '2026-12-06',
    why:
      'an ordinary step awaited a free lock, an absent tool count, an unneeded lightening and a fold decision that ' +
      'needed no activity; every promise costs the worker a captured stack trace, so they are now taken at once. ' +
      'The awaits shifted when a step issued its commands within an activation: a run recorded with them replays them.',
    retire:
      'deprecatePatch once every conversation started before it has closed or continued as new on a worker with ' +
      'the gate; removed one release later',
  },
];
