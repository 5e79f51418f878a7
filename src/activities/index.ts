/**
 * `createActivities(deps)`: every activity the conversation workflow calls, built around injected dependencies (the
 * archive, token counters, summarizer defaults) so tests and other deployments can swap them.
 */
import type { ConversationArchive, PurgeOutcome } from '../archive/archive';
import { adapterFor } from '../core/messages/adapter-for-format';
import { evictStaleToolResults } from '../core/fold/evict';
import { OBSERVATION_CHARS } from '../core/fold/state-ledger';
import { normalize } from '../core/messages/normalize';
import { clipItem } from '../core/plan/clip-oversized';
import {
  builtinProfiles,
  findProfile,
  resolveProfile,
  type SummarizerChoice,
  type SummarizerProfiles,
} from '../summarizers/profiles';
import type { TextCounter } from '../summarizers/types';
import type { SettingsPatch } from '../contract/settings';
import { withFoldTarget } from '../contract/fold-target';
import { countersByModel, createTokenCounter, type TokenCounter } from '../tokens';
import type { ProviderCounts } from '../tokens/provider-count/provider-counts';
import type { ConversationMetrics } from '../metrics/conversation-metrics';
import { archiveCall, currentArchiveKey } from './archive-key';
import { createCountTokensActivity } from './count-tokens';
import {
  createSummarizeActivity,
  type SummarizeActivityDeps,
  type SummarizeInput,
  type SummarizeOutput,
} from './summarize';
import type {
  HeadRef,
  IngestInput,
  IngestResult,
  RecordFoldInput,
  FoldRecordTimes,
  SummarizeFoldInput,
  SummarizeFoldResult,
} from './types';

/** What the activities need. */
export interface ActivityDeps {
  archive: ConversationArchive;
  /** Token counter per model. @default one `createTokenCounter({ model })` per model, kept for the process */
  counterFor?: (model: string) => TokenCounter;
  /**
   * Provider-counted texts (the `counting:` section, mode `provider`): `ingest` has the provider count the texts of
   * new Claude and Gemini messages before it counts, and the default counters price from those counts. @default none
   */
  providerCounts?: ProviderCounts;
  /**
   * The summarizer profiles of the worker's configuration: conversations pick one by name.
   * @default one extractive (offline) profile named 'default'
   */
  profiles?: SummarizerProfiles;
  /**
   * Defaults of new conversations from the worker's configuration (its `compaction:` section), read by the workflow
   * when a conversation starts, over the new-conversation fold target (`withFoldTarget`). @default {} (the built-in
   * defaults)
   */
  conversationDefaults?: SettingsPatch;
  /** Extra options of the summarize activity (environment for API keys, heartbeat interval, progress hook). */
  summarize?: Omit<SummarizeActivityDeps, 'profiles' | 'counterFor'>;
  /** Where summarize timings go (the worker's Prometheus metrics). @default none */
  metrics?: Pick<ConversationMetrics, 'summarized'>;
}

/** Items above this share of the budget are clipped when they arrive (their full text stays in the archive). */
export const CLIP_RATIO = 0.5;

/** @returns where the full text of message `seq` is kept, as written into a clip marker. */
export function archiveRef(conversationId: string, seq: number): string {
  return `the conversation archive (conversation ${conversationId}, message #${seq})`;
}

/**
 * Builds the activities.
 * @returns `{ ingest, countTokens, summarizeFold, summarize, recordFold }`.
 */
export function createActivities(deps: ActivityDeps) {
  const known = deps.providerCounts;
  const counterFor =
    deps.counterFor ??
    countersByModel((model) =>
      createTokenCounter({ model, ...(known ? { knownText: (text: string) => known.lookup(model, text) } : {}) })
    );
  const countTokens = createCountTokensActivity({ counterFor });
  const profiles = deps.profiles ?? builtinProfiles();
  const summarize = createSummarizeActivity({
    ...deps.summarize,
    profiles,
    counterFor: (model: string): TextCounter => counterFor(model),
  });

  /** Clips `raw` (archive message `seq`) when it is over the clip share of the budget. */
  const clip = (
    input: { conversationId: string; format: IngestInput['format']; model: string; budget: number },
    raw: unknown,
    seq: number,
    tokens: number
  ) => {
    const adapter = adapterFor(input.format);
    const item = adapter.toItem(raw, 0);
    const clipped = clipItem(
      item,
      tokens,
      Math.floor(CLIP_RATIO * input.budget),
      archiveRef(input.conversationId, seq),
      adapter
    );
    if (!clipped) return undefined;
    return {
      raw: clipped.raw,
      tokens: counterFor(input.model).countMessage(clipped.raw, input.format),
      cutChars: clipped.cutChars,
    };
  };

  return {
    /**
     * Archives new messages under the workflow id (idempotent by sequence number and content), counts them, and
     * clips those over half the budget.
     * Runs as a local activity: it is short and its result is O(new messages).
     */
    async ingest(input: IngestInput): Promise<IngestResult> {
      await archiveCall(() => deps.archive.append(currentArchiveKey(), input.firstSeq, input.messages));
      await known?.prefetch(input.model, input.format, input.messages);
      const counter = counterFor(input.model);
      const counts = counter.countMessages(input.messages, input.format);
      const clipped: IngestResult['clipped'] = [];
      input.messages.forEach((raw, index) => {
        const c = clip(input, raw, input.firstSeq + index, counts[index] ?? 0);
        if (c) clipped.push({ index, ...c });
      });
      return { counts, clipped, fixedTokens: counter.replyPriming, at: Date.now() };
    },

    countTokens,

    summarize,

    /** The worker's configured defaults for new conversations (local activity, once per conversation). */
    // eslint-disable-next-line @typescript-eslint/require-await -- activities are async by contract
    async conversationDefaults(): Promise<SettingsPatch> {
      return withFoldTarget(deps.conversationDefaults);
    },

    /**
     * Folds a head given by archive references: reads the originals, clips the ones the live context holds clipped
     * (so the summarizer sees what the model saw), and summarizes. The head never travels through workflow history.
     */
    async summarizeFold(input: SummarizeFoldInput): Promise<SummarizeFoldResult> {
      const reclip = (raw: unknown, seq: number): unknown =>
        clip(input, raw, seq, counterFor(input.model).countMessage(raw, input.format))?.raw ?? raw;
      const head = await resolveHead(deps.archive, input, reclip);
      const seqs = input.head.map((h) => ('seq' in h ? h.seq : null));
      const systemPrompt = input.system?.length
        ? systemPromptOf(await resolveHead(deps.archive, { ...input, head: input.system }, reclip), input.format)
        : undefined;
      const metrics = deps.metrics;
      const observe = metrics
        ? (outcome: 'ok' | 'failed' | 'error', seconds: number) =>
            metrics.summarized(summaryMode(profiles, input.summarizer), outcome, seconds)
        : undefined;
      const { system: _system, ...rest } = input;
      const result = await summarizeHead(
        head,
        { ...rest, seqs, ...(systemPrompt ? { systemPrompt } : {}) },
        summarize,
        observe
      );
      // Kept under the request's digest, which the fold record carries: `inspect --summaries` shows it.
      if (result.ok && result.requestDigest) {
        const text = result.summary.kind === 'text' ? result.summary.text : JSON.stringify(result.summary.items);
        const summary = { digest: result.requestDigest, kind: result.summary.kind, text };
        await archiveCall(() => deps.archive.recordSummary(currentArchiveKey(), summary));
      }
      return result;
    },

    /**
     * Whether this worker has the summarizer profile a caller chose (a local activity: the workflow cannot read the
     * worker's configuration). Returns instead of throwing, so the answer is never retried.
     */
    // eslint-disable-next-line @typescript-eslint/require-await
    async checkSummarizerProfile(input: { profile: string }): Promise<{ ok: boolean; message: string }> {
      const found = findProfile(profiles, input.profile);
      return found.config ? { ok: true, message: '' } : { ok: false, message: found.message };
    },

    /**
     * Erases everything the archive holds for this workflow id (the `delete` update). Idempotent: a second call
     * erases nothing and returns zeros.
     */
    async purgeArchive(): Promise<PurgeOutcome> {
      return archiveCall(() => deps.archive.purge(currentArchiveKey()));
    },

    /**
     * Writes a fold record to the archive (idempotent by its number), for `durable-compaction inspect`.
     * @returns the record's number and task times as written, for a replay to adopt.
     */
    async recordFold(input: RecordFoldInput): Promise<FoldRecordTimes> {
      await archiveCall(() => deps.archive.recordFold(currentArchiveKey(), input.record));
      const { number, startedAt, finishedAt } = input.record;
      return { number, startedAt, finishedAt };
    },
  };
}

/** The activities' type, for `proxyActivities<Activities>()` in workflow code. */
export type Activities = ReturnType<typeof createActivities>;

/** The head's messages in order: archived originals (clipped again where the live context holds them clipped). */
async function resolveHead(
  archive: ConversationArchive,
  input: SummarizeFoldInput,
  reclip: (raw: unknown, seq: number) => unknown
): Promise<unknown[]> {
  const seqs = input.head.filter((h): h is Extract<HeadRef, { seq: number }> => 'seq' in h).map((h) => h.seq);
  const read = await archiveCall(() => archive.read(currentArchiveKey(), seqs));
  const archived = new Map(read.map((a) => [a.seq, a.message]));
  return input.head.map((h) => {
    if ('raw' in h) return h.raw;
    const original = archived.get(h.seq);
    return h.clipped ? reclip(original, h.seq) : original;
  });
}

/** @returns the text of the conversation's instruction messages, in order, one paragraph each; `undefined` when empty. */
function systemPromptOf(raws: readonly unknown[], format: SummarizeFoldInput['format']): string | undefined {
  const adapter = adapterFor(format);
  const text = raws
    .map((raw, i) => adapter.toItem(raw, i).text.trim())
    .filter((t) => t !== '')
    .join('\n\n');
  return text === '' ? undefined : text;
}

/** The summarizer mode a call with `choice` runs (the metrics label); `unknown` for a profile not configured. */
function summaryMode(profiles: SummarizerProfiles, choice: SummarizerChoice): string {
  try {
    return resolveProfile(profiles, choice).mode ?? 'extractive';
  } catch {
    return 'unknown';
  }
}

/**
 * Summarizes a fold's head (the originals, in order) as `summarizeFold` does: stale tool outputs become pointers
 * first, then the configured summarizer writes the summary. Shared by the activity and the offline `fold` CLI.
 * @returns the fold's summary, or why there is none.
 */
export async function summarizeHead(
  head: unknown[],
  input: Omit<SummarizeFoldInput, 'head' | 'conversationId' | 'summarizer' | 'system'> & {
    summarizer: SummarizerChoice;
    seqs?: (number | null)[];
    /** The conversation's system prompt, to lead the request. */
    systemPrompt?: string;
  },
  summarize: (input: SummarizeInput) => Promise<SummarizeOutput>,
  observe?: (outcome: 'ok' | 'failed' | 'error', seconds: number) => void
): Promise<SummarizeFoldResult> {
  // Old tool outputs become pointers saying how to get them back: the summarizer reads less, loses nothing.
  const { raws: messages } = evictStaleToolResults(normalize(head, input.format, { stored: true }), {
    budget: input.budget,
    keepReminders: true,
    // What the state ledger keeps of a tool result whole, it must see.
    keepShorterThan: OBSERVATION_CHARS,
    ...(input.hotPaths ? { hotPaths: input.hotPaths } : {}),
  });
  const started = performance.now();
  const timed = (outcome: 'ok' | 'failed' | 'error'): void => observe?.(outcome, (performance.now() - started) / 1000);
  const result = await summarize({
    format: input.format,
    messages,
    ...(input.seqs ? { seqs: input.seqs } : {}),
    ...(input.ledger ? { ledger: input.ledger } : {}),
    budget: input.budget,
    model: input.model,
    foldedTokens: input.foldedTokens,
    ...(input.keptTokens !== undefined ? { keptTokens: input.keptTokens } : {}),
    ...(input.carriedRoomTokens !== undefined ? { carriedRoomTokens: input.carriedRoomTokens } : {}),
    summarizer: input.summarizer,
    ...(input.heartbeatMs !== undefined ? { heartbeatMs: input.heartbeatMs } : {}),
    ...(input.systemPrompt ? { systemPrompt: input.systemPrompt } : {}),
    ...(input.focus ? { focus: input.focus } : {}),
  }).catch((err: unknown) => {
    timed('error');
    throw err;
  });
  timed(result.ok ? 'ok' : 'failed');
  const common = {
    usage: result.usage ?? null,
    responseId: result.responseId ?? null,
    outputTypes: result.outputTypes,
    attempts: result.attempts,
    ...(result.requestDigest ? { requestDigest: result.requestDigest } : {}),
  };
  if (!result.ok) return { ok: false, error: { kind: result.kind, message: result.message }, ...common };
  const summary = result.items
    ? { kind: 'items' as const, items: result.items }
    : { kind: 'text' as const, text: result.text ?? '' };
  return {
    ok: true,
    summary,
    identifiers: { kept: result.retention.kept, total: result.retention.total },
    ...(result.carry ? { carry: result.carry } : {}),
    ...common,
  };
}
