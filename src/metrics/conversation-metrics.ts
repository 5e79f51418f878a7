/**
 * The worker's own Prometheus metrics (prom-client), all prefixed `dc_`. The names, types and labels are documented
 * in docs/operations.md; `test/metrics/metrics.test.ts` scrapes them from a running worker.
 */
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { FoldObservation, PrefixObservation } from './sink-types';

/** Token-count buckets for the before/after histograms (contexts of 1k to 1M tokens, the largest budget). */
const TOKEN_BUCKETS = [
  1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 64_000, 128_000, 200_000, 300_000, 500_000, 750_000, 1_000_000,
];
/** Seconds buckets from 5 ms (a prepare without fold) to 5 min (a slow summarizer with retries). */
const SECONDS_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];
/** Prepare updates whose start is remembered without an end (a start observed, the end on another worker). */
const OPEN_PREPARES = 10_000;

/** Options of {@link ConversationMetrics}. */
export interface ConversationMetricsOptions {
  /** Registry to register in. @default a new one */
  registry?: Registry;
  /** Clock for durations, ms. @default performance.now */
  now?: () => number;
}

export class ConversationMetrics {
  readonly registry: Registry;
  private readonly now: () => number;
  private readonly folds: Counter<'outcome'>;
  private readonly foldFailures: Counter<'kind'>;
  private readonly backoffs: Counter;
  private readonly tokensBefore: Histogram;
  private readonly tokensAfter: Histogram;
  private readonly summarize: Histogram<'mode' | 'outcome'>;
  private readonly prepare: Histogram<'outcome'>;
  private readonly contextTokens: Counter;
  private readonly prefixTokens: Counter;
  private readonly open = new Map<string, number>();
  private cachedSource: () => number = () => 0;

  constructor(options: ConversationMetricsOptions = {}) {
    this.registry = options.registry ?? new Registry();
    this.now = options.now ?? (() => performance.now());
    const registers = [this.registry];
    this.folds = new Counter({
      name: 'dc_folds_total',
      help: 'Fold attempts by outcome (ok, truncated, failed).',
      labelNames: ['outcome'],
      registers,
    });
    this.foldFailures = new Counter({
      name: 'dc_fold_failures_total',
      help: 'Failed folds by error kind (too_large, incomplete, no_text, unsafe, provider, aborted).',
      labelNames: ['kind'],
      registers,
    });
    this.backoffs = new Counter({
      name: 'dc_backoffs_total',
      help: 'Folds skipped because the same prefix failed before (the context is sent unfolded).',
      registers,
    });
    this.tokensBefore = new Histogram({
      name: 'dc_fold_tokens_before',
      help: 'Context tokens that triggered a fold.',
      buckets: TOKEN_BUCKETS,
      registers,
    });
    this.tokensAfter = new Histogram({
      name: 'dc_fold_tokens_after',
      help: 'Context tokens after a successful fold.',
      buckets: TOKEN_BUCKETS,
      registers,
    });
    this.summarize = new Histogram({
      name: 'dc_summarize_duration_seconds',
      help: 'Time of one summarizeFold activity attempt, by summarizer mode and outcome (ok, failed, error).',
      labelNames: ['mode', 'outcome'],
      buckets: SECONDS_BUCKETS,
      registers,
    });
    this.prepare = new Histogram({
      name: 'dc_prepare_duration_seconds',
      help: 'Time a prepare update takes on the worker (from its first to its last workflow activation).',
      labelNames: ['outcome'],
      buckets: SECONDS_BUCKETS,
      registers,
    });
    this.contextTokens = new Counter({
      name: 'dc_prepare_context_tokens_total',
      help: 'Counted message tokens of the contexts prepare returned.',
      registers,
    });
    this.prefixTokens = new Counter({
      name: 'dc_prepare_prefix_tokens_total',
      help: 'Of those, tokens repeating the previous context as a prefix (what a provider prompt cache can reuse).',
      registers,
    });
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- prom-client calls collect with the gauge as this
    const self = this;
    new Gauge({
      name: 'dc_conversations_cached',
      help: "Conversations in this worker's sticky cache (each holds its live context in memory).",
      registers,
      collect() {
        this.set(self.cachedSource());
      },
    });
  }

  /** Where `dc_conversations_cached` reads from (the worker's status). */
  setCachedSource(source: () => number): void {
    this.cachedSource = source;
  }

  fold(o: FoldObservation): void {
    this.folds.inc({ outcome: o.outcome });
    this.tokensBefore.observe(o.tokensBefore);
    if (o.outcome === 'failed') this.foldFailures.inc({ kind: o.kind ?? 'unknown' });
    else if (o.tokensAfter !== null) this.tokensAfter.observe(o.tokensAfter);
  }

  backoff(): void {
    this.backoffs.inc();
  }

  summarized(mode: string, outcome: 'ok' | 'failed' | 'error', seconds: number): void {
    this.summarize.observe({ mode, outcome }, seconds);
  }

  prefix(o: PrefixObservation): void {
    this.contextTokens.inc(o.contextTokens);
    this.prefixTokens.inc(o.prefixTokens);
  }

  prepareStarted(key: string): void {
    if (this.open.size >= OPEN_PREPARES) this.open.delete(this.open.keys().next().value!);
    this.open.set(key, this.now());
  }

  prepareFinished(key: string, ok: boolean): void {
    const started = this.open.get(key);
    if (started === undefined) return;
    this.open.delete(key);
    this.prepare.observe({ outcome: ok ? 'ok' : 'rejected' }, (this.now() - started) / 1000);
  }
}
