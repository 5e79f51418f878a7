/**
 * The markdown a conversation shows as its current details in the Temporal UI (and `__temporal_workflow_metadata`).
 * Pure and deterministic: it runs in workflow code after every handler; setting it costs no history event.
 */
import type { BackoffMemory } from '../core/fold/backoff';
import type { FoldRecord } from '../core/fold/fold-record';
import { triggerThreshold } from '../core/plan/trigger';
import type { FoldProgress } from '../contract/fold-progress';
import { foldDetails } from './fold-details';

/** What the details show. */
export interface CurrentDetailsInput {
  conversationId: string;
  model: string;
  /** Estimated context tokens now (calibrated). */
  tokens: number;
  budget: number;
  triggerRatio: number;
  /** Live messages and archived messages so far. */
  messages: number;
  archived: number;
  /** Fold attempts so far. */
  folds: number;
  /** The most recent fold attempt, when any. */
  lastFold: FoldRecord | null;
  backoff: BackoffMemory | null;
  /** The fold in flight (background or blocking), from the fold step. */
  folding: FoldProgress | null;
  closed: boolean;
  lastError: { at: number; message: string } | null;
}

/** Longest error text shown (the details are bounded whatever the error). */
const ERROR_CHARS = 200;

/** @returns `29 706`: digits grouped by thin spaces, as the UI shows them. */
export function groupDigits(n: number): string {
  return String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
}

function time(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function lastFoldLine(f: FoldRecord): string {
  const took = `${((f.finishedAt - f.startedAt) / 1000).toFixed(1)} s`;
  if (!f.ok) return `**last fold** #${f.number} failed (${f.error?.kind ?? 'unknown'}) at ${time(f.finishedAt)}`;
  const how = f.fallback ? ' (offline fallback)' : '';
  const kept = f.identifiers ? `, ${f.identifiers.kept}/${f.identifiers.total} identifiers kept` : '';
  const after = f.tokensAfter === null ? '?' : groupDigits(f.tokensAfter);
  return (
    `**last fold** #${f.number}${how}: ${groupDigits(f.tokensBefore)} → ${after} tokens, ` +
    `${f.droppedCount} messages folded${kept}, ${took}, at ${time(f.finishedAt)}`
  );
}

/**
 * Renders the current details.
 * @returns a few lines of Temporal-flavoured markdown, at most ~1 KB.
 */
export function renderCurrentDetails(d: CurrentDetailsInput): string {
  const share = d.budget > 0 ? Math.round((100 * d.tokens) / d.budget) : 0;
  const lines = [
    `**conversation** \`${d.conversationId}\` · ${d.model}${d.closed ? ' · closed' : ''}`,
    `**tokens** ${groupDigits(d.tokens)} / ${groupDigits(d.budget)} (${share}%) · fold at ` +
      `${groupDigits(triggerThreshold(d.budget, d.triggerRatio))} · ${d.messages} live messages, ${d.archived} archived`,
    `**folds** ${d.folds}`,
  ];
  if (d.lastFold) lines.push(lastFoldLine(d.lastFold));
  // The fold in flight, as the fold step renders it ("**Compacting** (phase): folding messages #a–#b since T").
  if (d.folding) lines.push(foldDetails(d.folding, null));
  if (d.backoff) {
    lines.push(
      `**back-off** the fold of the first ${d.backoff.split} messages failed ${d.backoff.failures}× at ` +
        `${groupDigits(d.backoff.tokens)} tokens: not retried until the context grows`
    );
  }
  if (d.lastError) {
    const text =
      d.lastError.message.length > ERROR_CHARS ? `${d.lastError.message.slice(0, ERROR_CHARS)}…` : d.lastError.message;
    lines.push(`**last error** ${time(d.lastError.at)}: ${text}`);
  }
  return lines.join('\n');
}
