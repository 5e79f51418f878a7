/**
 * The canary survival measure: every chosen corpus session, under several seeds, planted with one canary of each type
 * and folded five times at decreasing budgets; survival per type and fold, per position, superseded values still
 * stated, and the summary's size against the original tokens it stands for.
 */
import type { Summarizer, SummarizerConfig } from '../../src/summarizers';
import { createTokenCounter } from '../../src/tokens';
import { corpusConversations } from '../../test/support/corpus';
import type { CanaryPosition, CanaryType } from './generator';
import { CANARY_POSITIONS, CANARY_TYPES } from './generator';
import { plantCanaries } from './plant';
import type { FoldRound } from './run';
import { runFolds } from './run';

/** Options of {@link measureCanaries}. */
export interface MeasureOptions {
  /** Corpus sessions by name. @default all twelve */
  sessions?: readonly string[];
  /** Seeds per session. @default [0, 1, 2] (every type at every position once) */
  seeds?: readonly number[];
  /** Folds per run. @default 5 */
  folds?: number;
  /** Non-instruction tokens the smallest budget leaves. @default 3000, lowered by 500 down to 1500 until 5 folds */
  floor?: number;
  summarizer?: SummarizerConfig;
  /** A summarizer instead of the configured one (a control for the harness). */
  summarize?: Summarizer;
}

/** Kept of planted. */
export interface Ratio {
  kept: number;
  total: number;
}

/** The aggregate of a measure. */
export interface CanaryReport {
  runs: number;
  /** Survival per type, per fold number (index 0 = after fold 1). */
  byType: Record<CanaryType, Ratio[]>;
  /** Survival per position after the last fold of each run. */
  byPosition: Record<CanaryPosition, Ratio>;
  /** Updates folded together with their original whose old value the summary still states. */
  stale: Ratio;
  /** Summary tokens and the original tokens they stand for, after the last fold of each run, summed over runs. */
  size: { summaryTokens: number; coveredTokens: number };
  /**
   * Per session: folds reached (minimum over seeds); the worst summary/covered of any fold covering at least
   * {@link SMALL_FOLD_TOKENS} original tokens (0 when none did), and the largest summary of a smaller fold (0 when none).
   */
  sessions: { name: string; folds: number; budgets: number[]; worstRatio: number; smallFoldMaxSummary: number }[];
  /** Every fold: the worst summary/covered of folds covering at least {@link SMALL_FOLD_TOKENS}, and the smaller folds. */
  perFold: { worstRatio: number; folds: number; smallFolds: number; smallFoldMaxSummary: number };
  /** Folds attempted and folds that failed unfolded. */
  folds: { attempted: number; failed: number };
}

const empty = (): Ratio => ({ kept: 0, total: 0 });

/** The floors tried in turn (see `MeasureOptions.floor`). */
const DEFAULT_FLOORS = [3000, 2500, 2000, 1500];

/**
 * A fold covering fewer original tokens than this is a small fold: its summary is bounded in tokens
 * ({@link SMALL_FOLD_MAX_SUMMARY}), not as a share. The state ledger is never shortened to meet a share, and a short,
 * rule-dense stretch of conversation (the harness plants seven canaries in as little as 1 700 tokens) has a ledger
 * worth more than 15% of it.
 */
export const SMALL_FOLD_TOKENS = 4000;
/** The largest summary of a small fold, tokens (the acceptance bound for folds under {@link SMALL_FOLD_TOKENS}). */
export const SMALL_FOLD_MAX_SUMMARY = 640;
/** Summary over the original tokens it stands for, at most, for every fold covering {@link SMALL_FOLD_TOKENS} or more. */
export const MAX_SUMMARY_SHARE = 0.15;

/**
 * The budget of each fold: a third of the session's tokens (at most 24 000, at least 1.25 × the floor), then 0.8 of
 * the previous one, never below the instructions' tokens plus `floor`.
 *
 * @returns five budgets
 */
export function budgetSchedule(totalTokens: number, instructionTokens: number, floor: number, folds: number): number[] {
  const min = instructionTokens + floor;
  const first = Math.min(24_000, Math.max(Math.round(min * 1.25), Math.round(totalTokens / 3)));
  return Array.from({ length: folds }, (_, k) => Math.max(min, Math.round(first * 0.8 ** k)));
}

/**
 * Runs the measure.
 *
 * @returns the aggregate report, and the runs' rounds for inspection
 */
export async function measureCanaries(options: MeasureOptions = {}): Promise<CanaryReport> {
  const counter = createTokenCounter({ model: 'gpt-4o' });
  const folds = options.folds ?? 5;
  const seeds = options.seeds ?? [0, 1, 2];
  const chosen = corpusConversations().filter((c) => !options.sessions || options.sessions.includes(c.name));
  const report: CanaryReport = {
    runs: 0,
    byType: Object.fromEntries(
      CANARY_TYPES.map((t) => [t, Array.from({ length: folds }, empty)])
    ) as CanaryReport['byType'],
    byPosition: Object.fromEntries(CANARY_POSITIONS.map((p) => [p, empty()])) as CanaryReport['byPosition'],
    stale: empty(),
    size: { summaryTokens: 0, coveredTokens: 0 },
    sessions: [],
    perFold: { worstRatio: 0, folds: 0, smallFolds: 0, smallFoldMaxSummary: 0 },
    folds: { attempted: 0, failed: 0 },
  };
  for (const { name, messages } of chosen) {
    const counts = counter.countMessages(messages, 'chat');
    const total = counts.reduce((a, b) => a + b, 0);
    const instructions = messages.reduce((a, m, i) => a + (m.role === 'system' ? counts[i]! : 0), 0);
    const floors = options.floor !== undefined ? [options.floor] : DEFAULT_FLOORS;
    let budgets: number[] = [];
    const run = (msgs: typeof messages, canaries?: Parameters<typeof runFolds>[1]['canaries']) =>
      runFolds(msgs, {
        budgets,
        folds,
        counter,
        ...(options.summarizer ? { summarizer: options.summarizer } : {}),
        ...(options.summarize ? { summarize: options.summarize } : {}),
        ...(canaries ? { canaries } : {}),
      });
    // A dry run finds how far five folds reach, so that "late" means late in what gets folded; a short session gets
    // the next lower floor until it folds five times (small summaries leave room for more turns between folds).
    let dry: FoldRound[] = [];
    for (const floor of floors) {
      budgets = budgetSchedule(total, instructions, floor, folds);
      dry = await run(messages);
      if (dry.length >= folds) break;
    }
    const prefix = dry.length >= folds ? dry[folds - 1]!.ingested : messages.length;
    let minFolds = Infinity;
    let worstRatio = 0;
    let smallFoldMaxSummary = 0;
    for (const seed of seeds) {
      const planted = plantCanaries(messages, prefix, seed);
      const rounds: FoldRound[] = await run(planted.messages, planted.canaries);
      report.runs += 1;
      report.folds.attempted += rounds.length;
      report.folds.failed += rounds.filter((r) => !r.ok).length;
      const ok = rounds.filter((r) => r.ok);
      for (const r of ok) {
        if (r.coveredTokens >= SMALL_FOLD_TOKENS) {
          worstRatio = Math.max(worstRatio, r.summaryTokens / r.coveredTokens);
          report.perFold.folds += 1;
        } else {
          smallFoldMaxSummary = Math.max(smallFoldMaxSummary, r.summaryTokens);
          report.perFold.smallFolds += 1;
        }
      }
      minFolds = Math.min(minFolds, ok.length);
      ok.forEach((r, k) => {
        for (const p of r.planted) {
          const cell = report.byType[p.canary.type][k]!;
          cell.total += 1;
          if (r.kept.has(p.canary.id)) cell.kept += 1;
        }
      });
      const last = ok[ok.length - 1];
      if (!last) continue;
      for (const p of last.planted) {
        report.byPosition[p.canary.position].total += 1;
        if (last.kept.has(p.canary.id)) report.byPosition[p.canary.position].kept += 1;
      }
      report.stale.total += last.staleEligible.size;
      report.stale.kept += last.stale.size;
      report.size.summaryTokens += last.summaryTokens;
      report.size.coveredTokens += last.coveredTokens;
    }
    report.perFold.worstRatio = Math.max(report.perFold.worstRatio, worstRatio);
    report.perFold.smallFoldMaxSummary = Math.max(report.perFold.smallFoldMaxSummary, smallFoldMaxSummary);
    const reached = minFolds === Infinity ? 0 : minFolds;
    report.sessions.push({ name, folds: reached, budgets, worstRatio, smallFoldMaxSummary });
  }
  return report;
}

const pct = (r: Ratio): string =>
  r.total === 0 ? 'n/a' : `${((100 * r.kept) / r.total).toFixed(1)}% (${r.kept}/${r.total})`;

/**
 * Formats a report as Markdown tables.
 *
 * @returns the tables
 */
export function formatReport(report: CanaryReport): string {
  const folds = CANARY_TYPES.length > 0 ? report.byType.rule.length : 0;
  const head = `| canary type | ${Array.from({ length: folds }, (_, k) => `after fold ${k + 1}`).join(' | ')} |`;
  const rule = `|---|${Array.from({ length: folds }, () => '---').join('|')}|`;
  const rows = CANARY_TYPES.map((t) => `| ${t} | ${report.byType[t].map(pct).join(' | ')} |`);
  const pos = CANARY_POSITIONS.map((p) => `${p} ${pct(report.byPosition[p])}`).join(' · ');
  const ratio = (100 * report.size.summaryTokens) / Math.max(1, report.size.coveredTokens);
  const small = (n: number): string => (n > 0 ? `${n}` : '—');
  const sessions = report.sessions.map(
    (s) =>
      `| ${s.name} | ${s.folds} | ${s.budgets.join(' → ')} | ${(100 * s.worstRatio).toFixed(1)}% | ${small(s.smallFoldMaxSummary)} |`
  );
  const pf = report.perFold;
  return [
    head,
    rule,
    ...rows,
    '',
    `By position, after the last fold: ${pos}.`,
    `Superseded values still stated: ${pct(report.stale)}. Summary after the last fold: ${ratio.toFixed(1)}% of the original tokens it stands for (${report.size.summaryTokens} / ${report.size.coveredTokens}, summed over ${report.runs} runs). Folds: ${report.folds.attempted} attempted, ${report.folds.failed} failed.`,
    `Per fold: worst summary ${(100 * pf.worstRatio).toFixed(1)}% of the original tokens it stands for over the ${pf.folds} folds covering ${SMALL_FOLD_TOKENS}+ tokens; the ${pf.smallFolds} smaller folds' largest summary: ${pf.smallFoldMaxSummary} tokens.`,
    '',
    `| session | folds reached | budgets | summary / covered, worst fold (covering ${SMALL_FOLD_TOKENS}+ tokens) | largest summary of a smaller fold, tokens |`,
    '|---|---|---|---|---|',
    ...sessions,
  ].join('\n');
}
