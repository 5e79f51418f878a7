/**
 * The attempt loop every mode shares: a candidate that has no text, is incomplete or is not smaller than what it
 * folds is asked for once more; a second rejection fails the fold "unfolded" with that kind. Usage is summed over
 * attempts; the last response's id and output types are recorded; the ledger is applied to the accepted text.
 */
import { collectIdentifiers } from '../core/fold/identifiers';
import { applyLedger, measureRetention } from '../core/fold/identifier-ledger';
import { appendMissing, boundLedger, buildFoldLedger, summaryKey } from '../core/fold/state-ledger';
import type { LedgerEntry, StateLedger } from '../core/fold/state-ledger';
import { withoutReplaced } from '../core/fold/replaced-identifiers';
import { validateSummary } from '../core/fold/validate-summary';
import type { SummaryErrorKind } from '../core/fold/validate-summary';
import type { Transcript, Usage } from '../core/messages/types';
import { budgetRoom, ledgerCap, stateLedgerCap } from './limits';
import { addUsage } from './usage';
import type {
  SummarizeContext,
  SummarizeFailure,
  SummarizeRequest,
  SummarizeResult,
  SummarizeSuccess,
  SummarizerConfig,
  SummarizerMode,
  TextCounter,
} from './types';

/** One attempt's candidate. */
export interface Candidate {
  /** Summary text ("" when the response had none). */
  text: string;
  /** `compact`: the returned output items (the text is then a readable rendering of them, for retention). */
  items?: unknown[];
  /** Set when the response was cut off. */
  incompleteReason?: string;
  /** Tokens the candidate adds, when the mode measures them itself (`compact`); else counted from `text`. */
  summaryTokens?: number;
  usage?: Usage;
  responseId?: string;
  outputTypes: string[];
  /** The merged state ledger the candidate was written from (`extractive`); model modes build it on acceptance. */
  ledger?: StateLedger;
  /** The entries that ledger's merge replaced (`extractive`). */
  replaced?: readonly LedgerEntry[];
}

/** What {@link runSummaryAttempts} needs. */
export interface SummaryAttemptsInput {
  mode: SummarizerMode;
  config: SummarizerConfig;
  request: SummarizeRequest;
  transcript: Transcript;
  counter: TextCounter;
  ctx: SummarizeContext;
  /** Makes one attempt (1-based). */
  attempt: (n: number) => Promise<Candidate>;
  /** Apply the ledger to accepted text. @default true */
  ledger?: boolean;
  /** Attempts before failing unfolded. @default 2 */
  maxAttempts?: number;
  /** The clock for progress callbacks. @default Date.now */
  now?: () => number;
}

/**
 * Runs the attempts and builds the result; calls `ctx.onStart` before each attempt and `ctx.onComplete` once.
 *
 * @returns the success or the unfolded failure
 * @throws whatever `attempt` throws (transport errors)
 */
export async function runSummaryAttempts(input: SummaryAttemptsInput): Promise<SummarizeResult> {
  const { mode, request, counter, ctx } = input;
  const now = input.now ?? Date.now;
  const maxAttempts = input.maxAttempts ?? 2;
  const rejected: SummaryErrorKind[] = [];
  let usage: Usage | undefined;
  let result: SummarizeResult | undefined;
  let lastMessage = '';
  let last: Candidate | undefined;
  for (let n = 1; n <= maxAttempts && !result; n++) {
    ctx.onStart?.({ mode, attempt: n, startedAt: now() });
    ctx.heartbeat?.();
    const c = await input.attempt(n);
    last = c;
    usage = addUsage(usage, c.usage);
    const summaryTokens = c.summaryTokens ?? counter.countText(c.text);
    const error = validateSummary({
      text: c.items ? (c.outputTypes.includes('compaction') ? 'compaction' : '') : c.text,
      ...(c.incompleteReason !== undefined ? { incompleteReason: c.incompleteReason } : {}),
      summaryTokens,
      foldedTokens: request.foldedTokens,
    });
    if (error) {
      rejected.push(error.kind);
      lastMessage = error.message;
      continue;
    }
    result = accept(input, c, summaryTokens, { attempts: n, usage, rejected: [...rejected] });
  }
  if (!result) {
    const failure: SummarizeFailure = {
      ok: false,
      mode,
      kind: rejected[rejected.length - 1] ?? 'no_text',
      message: lastMessage,
      attempts: maxAttempts,
      ...(usage ? { usage } : {}),
      ...(last?.responseId ? { responseId: last.responseId } : {}),
      outputTypes: last?.outputTypes ?? [],
      rejected,
    };
    result = failure;
  }
  ctx.onComplete?.(result);
  return result;
}

function accept(
  input: SummaryAttemptsInput,
  c: Candidate,
  summaryTokens: number,
  record: { attempts: number; usage: Usage | undefined; rejected: SummaryErrorKind[] }
): SummarizeSuccess {
  const { mode, config, request, counter, transcript } = input;
  const identifiers = collectIdentifiers(transcript.items);
  const base = {
    ok: true as const,
    mode,
    attempts: record.attempts,
    ...(record.usage ? { usage: record.usage } : {}),
    ...(c.responseId ? { responseId: c.responseId } : {}),
    outputTypes: c.outputTypes,
    rejected: record.rejected,
  };
  if (c.items || input.ledger === false) {
    // The compaction item is opaque: retention is measured on what is readable, and nothing is appended to it.
    const retention = measureRetention(c.text, identifiers);
    return {
      ...base,
      ...(c.items ? { items: c.items } : { text: c.text.trim() }),
      summaryTokens,
      retention,
      retentionBefore: retention,
      ledger: { appended: 0, omitted: 0 },
    };
  }
  // A model's summary is checked against the state ledger built by code; what it left out is appended first.
  const count = (s: string): number => counter.countText(s);
  let text = c.text.trim();
  let stateAppended = 0;
  let merged = c.ledger;
  let replaced = c.replaced ?? [];
  if (mode !== 'extractive') {
    const built = buildFoldLedger(transcript.items, request.seqs, request.ledger);
    ({ ledger: merged, replaced } = built);
    const room = stateLedgerCap(config, request.budget, request.foldedTokens - summaryTokens - 1);
    const checked = appendMissing(text, built.ledger, { maxTokens: room, count });
    if (checked.appended > 0 && count(checked.text) < request.foldedTokens) {
      text = checked.text;
      summaryTokens = count(text);
      stateAppended = checked.appended;
    }
  }
  const headroom = Math.min(
    request.foldedTokens - summaryTokens - 1,
    budgetRoom(request.budget, request.keptTokens) - summaryTokens
  );
  const cap = ledgerCap(config, request.budget, headroom, request.foldedTokens);
  // What a replaced statement alone named is stale: the identifier list does not restate it.
  const current = merged ? withoutReplaced(identifiers, replaced, merged) : identifiers;
  let ledger = applyLedger(text, current, { maxTokens: cap, count: (s) => counter.countText(s) });
  let finalTokens = ledger.appended.length > 0 ? counter.countText(ledger.text) : summaryTokens;
  if (finalTokens >= request.foldedTokens) {
    // The per-identifier estimate undershot at a token boundary: a smaller summary beats a ledger that breaks it.
    ledger = applyLedger(text, current, { maxTokens: 0 });
    finalTokens = summaryTokens;
  }
  return {
    ...base,
    text: ledger.text,
    summaryTokens: finalTokens,
    retention: ledger.after,
    // Before either ledger: what the summarizer itself kept.
    retentionBefore: stateAppended > 0 ? measureRetention(c.text.trim(), current) : ledger.before,
    ledger: { appended: ledger.appended.length, omitted: ledger.omitted },
    ...(mode !== 'extractive' ? { stateLedger: { appended: stateAppended } } : {}),
    ...(merged ? { carry: { summaryKey: summaryKey(ledger.text), ledger: boundLedger(merged) } } : {}),
  };
}
