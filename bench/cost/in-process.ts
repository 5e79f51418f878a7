/**
 * One conversation run in-process by the same parts the workflow uses (ConversationState, planFold, the real
 * activities over an in-memory archive), without Temporal: the baseline "core called in-process" of the overhead
 * benchmark and the `durable-compaction` strategy of the session-cost simulation. Back-off and eviction are left out
 * (the offline summarizer does not fail on the corpus; eviction is off by default).
 */
import { MockActivityEnvironment } from '@temporalio/testing';
import { createActivities, type Activities } from '../../src/activities';
import type { HeadRef } from '../../src/activities/types';
import { applyFold } from '../../src/core/fold/apply';
import { planFold } from '../../src/core/plan';
import { ingestInput } from '../../src/workflows/conversation/ingest-input';
import { ConversationState } from '../../src/workflows/conversation/conversation-state';
import { defaultSettings, mergeSettings, planOptions, type SettingsPatch } from '../../src/contract/settings';
import type { ConversationArchive } from '../../src/archive/archive';
import { SqliteArchive } from '../../src/archive/sqlite-archive';

/** What one `prepare` did. */
export interface InProcessStep {
  context: unknown[];
  /** Set when this step folded: tokens the summarizer read and wrote. */
  summary?: { read: number; written: number };
}

let shared: Activities | undefined;

/** @returns the activities over one SQLite archive in memory, shared by every in-process conversation. */
function sharedActivities(): Activities {
  shared ??= createActivities({ archive: SqliteArchive.open({ path: ':memory:' }) });
  return shared;
}

export class InProcessConversation {
  readonly state: ConversationState;
  private readonly activities: Activities;
  /** The activities run in a mock activity context that names this conversation's workflow (the archive key). */
  private readonly context: MockActivityEnvironment;

  /** Set until the first `prepare` has adopted the worker's defaults (as the workflow does when it starts). */
  private pendingDefaults: SettingsPatch | null;

  /** @param archive where `ingest` writes; default: one SQLite archive in memory shared by all. */
  constructor(
    readonly conversationId: string,
    settings: SettingsPatch,
    archive?: ConversationArchive
  ) {
    this.pendingDefaults = settings;
    this.state = ConversationState.create(conversationId, mergeSettings(defaultSettings, settings));
    this.activities = archive ? createActivities({ archive }) : sharedActivities();
    this.context = new MockActivityEnvironment({
      workflowExecution: { workflowId: `conversation-${conversationId}`, runId: 'in-process' },
    });
  }

  /** Runs an activity in this conversation's mock activity context. */
  private run<A extends unknown[], R>(activity: (...args: A) => Promise<R>, ...args: A): Promise<R> {
    return this.context.run(activity, ...args);
  }

  /** Appends `messages` (ingest: archive, count, clip), folds at the trigger, and returns the context. */
  async prepare(messages: unknown[]): Promise<InProcessStep> {
    const state = this.state;
    if (this.pendingDefaults) {
      // The workflow's adoptConfiguredDefaults: built-in defaults ← the worker's defaults ← the start settings.
      const configured = await this.activities.conversationDefaults();
      state.configure(mergeSettings(mergeSettings(defaultSettings, configured), this.pendingDefaults));
      this.pendingDefaults = null;
    }
    const s = state.carried;
    const staged = state.stage({ messages });
    if (staged.messages.length > 0) {
      const ingested = await this.run(this.activities.ingest, ingestInput(s, staged));
      state.setReplyPriming(ingested.fixedTokens);
      state.commitAppend(staged, ingested.counts, ingested.clipped, undefined);
    }
    const summary = await this.maybeFold();
    state.patch(staged);
    return { context: state.raws(), ...(summary ? { summary } : {}) };
  }

  private async maybeFold(): Promise<InProcessStep['summary']> {
    const s = this.state.carried;
    if (!s.format) return undefined;
    const transcript = this.state.transcript();
    const plan = planFold({
      transcript,
      tokens: s.live.map((e) => e.tokens),
      fixedTokens: s.fixedTokens,
      options: planOptions(s.settings),
    });
    if (!plan.fold) return undefined;
    const head: HeadRef[] = plan.summarize.map((i) => {
      const e = s.live[i]!;
      return e.seq === null ? { raw: e.raw } : e.rev === 0 ? { seq: e.seq } : { seq: e.seq, clipped: true };
    });
    // summarizeFold heartbeats: it runs in a mock activity context, as the tests run activities.
    const result = await this.run(this.activities.summarizeFold, {
      conversationId: s.conversationId,
      format: s.format,
      model: s.settings.model,
      budget: s.settings.budget,
      summarizer: s.settings.summarizer,
      head,
      foldedTokens: plan.foldedTokens,
      keptTokens: plan.keptTokens,
      ...(plan.carriedRoomTokens !== undefined ? { carriedRoomTokens: plan.carriedRoomTokens } : {}),
      hotPaths: s.hotPaths,
    });
    if (!result.ok) return undefined;
    const folded = applyFold({ transcript, plan, summary: result.summary });
    const kept = new Set(transcript.items.map((item) => item.raw));
    const inserted = folded.filter((raw) => !kept.has(raw));
    const counted = await this.activities.countTokens({
      model: s.settings.model,
      format: s.format,
      messages: inserted,
    });
    this.state.commitFold({ folded, counts: counted.counts }, this.state.nextFoldNumber(), s.calibration);
    return { read: plan.foldedTokens, written: counted.counts.reduce((a, b) => a + b, 0) };
  }
}
