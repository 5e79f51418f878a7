/**
 * Inputs and results of the conversation workflow's activities. Workflow code imports these as types only.
 * No input or result ever carries a secret: the summarizer gets the *name* of the variable that holds its key.
 */
import type { FoldRecord } from '../core/fold/fold-record';
import type { CarriedLedger } from '../core/fold/state-ledger/carried';
import type { HotPaths } from '../core/fold/hot-paths';
import type { MessageFormat, Usage } from '../core/messages/types';
import type { SummarizerSettings } from '../contract/settings';

/** `ingest`: archive new messages, count them, clip the oversized ones. */
export interface IngestInput {
  conversationId: string;
  format: MessageFormat;
  model: string;
  budget: number;
  /** Archive sequence number of `messages[0]`. */
  firstSeq: number;
  messages: unknown[];
}

export interface IngestResult {
  counts: number[];
  /** Messages over the clip share of the budget, clipped head-and-tail with a pointer to the archive. */
  clipped: { index: number; raw: unknown; tokens: number; cutChars: number }[];
  /** Reply priming (and tool schemas) every request costs. */
  fixedTokens: number;
  /**
   * The worker's wall time when the messages were stored, epoch ms: the time the step's decisions read (kept in
   * history, so a replay reads the same). Absent from histories recorded before it was returned.
   */
  at?: number;
}

/** A message of the head to fold: by archive sequence number (optionally clipped again), or inline (summaries). */
export type HeadRef = { seq: number; clipped?: boolean } | { raw: unknown };

/** `summarizeFold`: turn the head into a summary. */
export interface SummarizeFoldInput {
  conversationId: string;
  format: MessageFormat;
  model: string;
  budget: number;
  summarizer: SummarizerSettings;
  head: HeadRef[];
  /** Counted tokens of what is folded; a summary must be smaller. */
  foldedTokens: number;
  /** Counted tokens the folded context keeps beside the summary (see `SummarizeRequest.keptTokens`). */
  keptTokens?: number;
  /** The room the plan set aside for the summary, what earlier summaries carry included (`FoldPlan.carriedRoomTokens`). */
  carriedRoomTokens?: number;
  /** Files read often lately: eviction keeps their latest read verbatim. */
  hotPaths?: HotPaths;
  /** Heartbeat interval while the model writes, ms (the conversation's `limits`). @default the worker's */
  heartbeatMs?: number;
  /** The conversation's system prompt (its instruction messages, by reference): it leads the summary request. */
  system?: HeadRef[];
  /** `compactNow({ focus })`: what this fold's summary should keep above all. */
  focus?: string;
  /** The state ledger carried from the last fold (its result's `carry`). @default read from the summary in the head */
  ledger?: CarriedLedger;
}

export type SummarizeFoldResult =
  | {
      ok: true;
      summary: { kind: 'text'; text: string } | { kind: 'items'; items: unknown[] };
      usage: Usage | null;
      responseId: string | null;
      outputTypes: string[];
      attempts: number;
      identifiers: { kept: number; total: number } | null;
      /** `summaryRequestDigest` of the request; the archive keeps the summary under it. Absent in older results. */
      requestDigest?: string;
      /** The fold's merged state ledger, bound to `summary`: the caller carries it to the next fold. */
      carry?: CarriedLedger;
    }
  | {
      ok: false;
      error: { kind: 'too_large' | 'incomplete' | 'no_text'; message: string };
      usage: Usage | null;
      responseId: string | null;
      outputTypes: string[];
      attempts: number;
      requestDigest?: string;
    };

export interface RecordFoldInput {
  conversationId: string;
  record: FoldRecord;
}

/**
 * The workflow task times of the fold record `recordFold` wrote, as it wrote them. Workflow time is the time a
 * workflow task started as the worker was told it; the server can store a retried or speculative task with another
 * start time, so a replay may compute other times than the run that wrote the record. The result is kept in history,
 * and a replay adopts it.
 */
export interface FoldRecordTimes {
  number: number;
  startedAt: number;
  finishedAt: number;
}
