/**
 * An example agent loop that embeds the {@link Compactor}: it appends scripted messages to its transcript, asks the
 * compactor for the context before each (simulated) model call, appends the reply, and continues-as-new every
 * `turnsPerRun` turns carrying its transcript and `compactor.state()`. A real agent would call its model in an
 * activity where this one writes a canned reply. The tests drive it; docs/client.md walks through it.
 */
import { continueAsNew } from '@temporalio/workflow';
import type { FoldRecord } from '../../src/core/fold/fold-record';
import {
  Compactor,
  type CompactorOptions,
  type CompactorState,
  type PrepareReport,
} from '../../src/workflows/compactor/compactor';

/** One scripted turn. */
export interface AgentStep {
  /** Cut the transcript back to this many messages first (a regenerate, an edit of an earlier turn). */
  truncateTo?: number;
  /** Messages appended before the model call (a user message, tool results). */
  append: unknown[];
  /** What the simulated model answers. @default `{ role: 'assistant', content: 'reply <n>' }` */
  reply?: unknown;
  /** Input tokens the simulated provider reports for the context (calibration). @default none */
  reportedInputTokens?: number;
}

/** What the loop logs per turn (the returned log is bounded to the last {@link LOG_KEPT} turns). */
export interface TurnLog {
  step: number;
  /** The run (0 for the first, +1 per continue-as-new) the turn ran in. */
  run: number;
  report: PrepareReport;
}

/** Start input; `carried` is set by the loop's own continue-as-new. */
export interface AgentLoopInput {
  steps: AgentStep[];
  compactor: CompactorOptions;
  /** Continue-as-new after this many turns in one run. @default 50 */
  turnsPerRun?: number;
  carried?: { next: number; run: number; transcript: unknown[]; compactor: CompactorState; log: TurnLog[] };
}

/** Result of the loop: the last context sent, the final transcript, the compactor's state and the turn log. */
export interface AgentLoopResult {
  runs: number;
  transcript: unknown[];
  lastContext: unknown[];
  log: TurnLog[];
  folds: FoldRecord[];
  state: CompactorState;
}

/** Turns kept in the carried log. */
export const LOG_KEPT = 100;

/**
 * Runs the scripted agent loop to the end of its steps.
 * @returns the result once every step has run (after any number of continue-as-new).
 * @throws ApplicationFailure from the compactor for bad options or a malformed transcript.
 */
export async function compactingAgentWorkflow(input: AgentLoopInput): Promise<AgentLoopResult> {
  const carried = input.carried;
  const compactor = new Compactor(input.compactor, carried?.compactor);
  const transcript = [...(carried?.transcript ?? [])];
  const log = [...(carried?.log ?? [])];
  const run = carried?.run ?? 0;
  const perRun = input.turnsPerRun ?? 50;
  let lastContext: unknown[] = [];
  let turns = 0;
  for (let step = carried?.next ?? 0; step < input.steps.length; step++) {
    if (turns === perRun) {
      // The compactor's state is plain data: it travels with the transcript into the next run.
      return continueAsNew<typeof compactingAgentWorkflow>({
        ...input,
        carried: { next: step, run: run + 1, transcript, compactor: compactor.state(), log },
      });
    }
    const s = input.steps[step]!;
    if (s.truncateTo !== undefined) transcript.length = Math.min(transcript.length, s.truncateTo);
    transcript.push(...s.append);
    lastContext = await compactor.prepare(transcript);
    // The model call would go here, sending `lastContext`; its reply joins the full transcript, not the context.
    if (s.reportedInputTokens !== undefined) compactor.reportUsage(s.reportedInputTokens);
    transcript.push(s.reply ?? { role: 'assistant', content: `reply ${step}` });
    log.push({ step, run, report: compactor.lastPrepare()! });
    if (log.length > LOG_KEPT) log.splice(0, log.length - LOG_KEPT);
    turns++;
  }
  return { runs: run + 1, transcript, lastContext, log, folds: compactor.folds(), state: compactor.state() };
}
