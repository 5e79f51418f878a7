/**
 * Writes bench/results/report.md and its SVG plots from the JSON results of one `npm run bench` run. Every figure is
 * a ratio to a baseline measured in the same run; goals from issue 15 are stated beside the numbers they judge.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CostResult, CostRow } from '../cost';
import type { GrowthResult } from '../growth';
import type { OverheadResult, Variant } from '../overhead';
import type { ScaleResult } from '../scale';
import { PRICE_MODELS, type PriceModelName } from '../cost/price-model';
import { STRATEGIES, type StrategyName } from '../cost/strategies';
import { barChart, lineChart } from './svg';

export interface RunInfo {
  date: string;
  machine: { cpus: number; model: string; memoryGB: number; os: string; node: string };
  seconds: Record<string, number>;
  totalSeconds: number;
}

const f = (n: number, d = 1): string => (Number.isFinite(n) ? n.toFixed(d) : '—');
const x = (n: number, d = 2): string => (Number.isFinite(n) ? `${n.toFixed(d)}×` : '—');
const pct = (n: number): string => (Number.isFinite(n) ? `${(100 * n).toFixed(1)}%` : '—');
const table = (head: string[], rows: string[][]): string[] => [
  `| ${head.join(' | ')} |`,
  `|${head.map(() => '---').join('|')}|`,
  ...rows.map((r) => `| ${r.join(' | ')} |`),
];

function read<T>(dir: string, name: string): T | undefined {
  const file = join(dir, name);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as T) : undefined;
}

function overheadSection(dir: string, o: OverheadResult): string[] {
  const labels: Record<Variant, string> = {
    bare: 'bare no-op update (baseline)',
    localActivity: 'update awaiting one no-op local activity',
    writeBehind: 'update handing its messages to a sink (archived and counted after the task)',
    prepare: '`prepare`, one message, no fold',
    prepareMemoryArchive: '`prepare`, archive write in memory',
    clientPrepare: '`ConversationClient.prepare` (update-with-start)',
    stepTwoTrips: 'agent step, two round trips (`record` + `prepare`)',
    stepOneTrip: 'agent step, one round trip (`prepare` with `output`)',
    core: 'the core in-process (no Temporal)',
  };
  const bare = o.latency.bare;
  const core = o.latency.core;
  const names = Object.keys(o.latency) as Variant[];
  writeFileSync(
    join(dir, 'overhead.svg'),
    barChart({
      title: `Round trip per call, ms (${o.samples} interleaved samples each)`,
      yLabel: 'ms',
      categories: names.filter((n) => n !== 'core'),
      series: (['p50', 'p95', 'p99'] as const).map((p) => ({
        name: p,
        values: names.filter((n) => n !== 'core').map((n) => o.latency[n][p]),
      })),
    }) + '\n'
  );
  const prep = o.latency.prepare;
  return [
    '## Per-step overhead',
    '',
    `${o.samples} samples per variant, interleaved call by call on one dev server (load hits every variant alike).`,
    '',
    ...table(
      ['call', 'p50 ms', 'p95 ms', 'p99 ms', 'p50 / bare p50', 'p99 / bare p99', 'p99 / own p50', 'p50 / core p50'],
      names.map((n) => {
        const l = o.latency[n];
        return [
          labels[n],
          f(l.p50, 2),
          f(l.p95, 2),
          f(l.p99, 2),
          x(l.p50 / bare.p50),
          x(l.p99 / bare.p99),
          x(l.p99 / l.p50),
          x(l.p50 / core.p50, 0),
        ];
      })
    ),
    '',
    `Goals: \`prepare\` without a fold ≤ 1.3× the bare update at p50 — measured **${x(prep.p50 / bare.p50)}**; its p99 ≤ 3× its p50 — measured **${x(prep.p99 / prep.p50)}**. ` +
      `One agent step in one round trip: **${x(o.latency.stepOneTrip.p50 / o.latency.stepTwoTrips.p50)}** the two-round-trip step at p50. ` +
      `What a \`prepare\` pays for above the bare update: the ingest local activity itself ${f(o.latency.localActivity.p50 - bare.p50, 2)} ms at p50, ` +
      `the work in it and in the handler (count, archive, plan, patch) ${f(prep.p50 - o.latency.localActivity.p50, 2)} ms, of which the archive write (file vs memory) ${f(prep.p50 - o.latency.prepareMemoryArchive.p50, 2)} ms.`,
    '',
    '![overhead](overhead.svg)',
    '',
  ];
}

function growthSection(dir: string, g: GrowthResult): string[] {
  const raw = g.late.step.p50 / g.early.step.p50;
  const controlled = g.late.step.p50 / g.late.bare.p50 / (g.early.step.p50 / g.early.bare.p50);
  writeFileSync(
    join(dir, 'growth.svg'),
    lineChart({
      title: `One conversation, ${g.steps} agent steps (one round trip each, no fold)`,
      xLabel: 'step',
      yLabel: 'ms',
      series: [{ name: 'step latency', values: g.perStep }],
    }) + '\n'
  );
  return [
    '## Growth with conversation length',
    '',
    ...table(
      ['window', 'step p50 ms', 'bare update p50 ms (control)', 'history bytes / step'],
      [
        [
          `steps ${g.early.from}–${g.early.to - 1}`,
          f(g.early.step.p50, 2),
          f(g.early.bare.p50, 2),
          f(g.historyBytesPerStep.early, 0),
        ],
        [
          `steps ${g.late.from}–${g.late.to - 1}`,
          f(g.late.step.p50, 2),
          f(g.late.bare.p50, 2),
          f(g.historyBytesPerStep.late, 0),
        ],
      ]
    ),
    '',
    `Step ~${g.late.to - 6} vs step ~6 at p50: **${x(raw)}** raw, **${x(controlled)}** against the bare-update control timed beside every step (goal ≤ 1.2×). ` +
      `Folds: ${g.folds}; context at the end ${g.contextTokensAtEnd} tokens; history ${f(g.historyBytes / 1024, 0)} KB.`,
    '',
    '![growth](growth.svg)',
    '',
  ];
}

/** Which process used most of the cores during a side's waves, and how busy the machine was (every process). */
function limitNote(cores: Record<string, number>): string {
  const named = Object.entries(cores).filter(([name]) => name !== 'machine');
  const [top] = [...named].sort((a, b) => b[1] - a[1]);
  return `${top ? top[0] : '—'} ${f(top?.[1] ?? NaN, 2)} of ${f(cores.machine ?? NaN, 2)} busy`;
}

function scaleSection(s: ScaleResult): string[] {
  const rows = s.secondWorker ? [...s.rows, s.secondWorker] : s.rows;
  const cores = (c: Record<string, number>): string =>
    `${f(c.server ?? NaN, 2)} / ${f(c.worker ?? NaN, 2)} / ${f(c.client ?? NaN, 2)} / ${f(c.machine ?? NaN, 2)}`;
  return [
    '## Scale: conversations on one worker',
    '',
    ...table(
      [
        'conversations',
        'workers × cache',
        'steps each',
        'steps/s: conversation / bare / one local activity / write-behind',
        'ratio (one local activity; write-behind)',
        'ratio after the starts',
        'step p50 / p99 ms: conversation',
        'bare',
        'worker RSS idle → end (peak) MB',
        'KB per cached conversation (bare workflow)',
        'cores server / worker / client / machine: conversation',
        'bare',
      ],
      rows.map((r) => [
        String(r.conversations),
        `${r.workers} × ${r.cache}`,
        String(r.steps),
        `${f(r.conversation.stepsPerSecond)} / ${f(r.bare.stepsPerSecond)} / ${f(r.localActivity?.stepsPerSecond ?? NaN)} / ${f(r.writeBehind?.stepsPerSecond ?? NaN)}`,
        `${x(r.throughputRatio)} (${x(r.localActivityRatio ?? NaN)}; ${x(r.writeBehindRatio ?? NaN)})`,
        r.runningRatio == null
          ? '—'
          : `${x(r.runningRatio)} (${x(r.runningLocalActivityRatio ?? NaN)}; ${x(r.runningWriteBehindRatio ?? NaN)})`,
        `${f(r.conversation.step.p50, 0)} / ${f(r.conversation.step.p99, 0)}`,
        `${f(r.bare.step.p50, 0)} / ${f(r.bare.step.p99, 0)}`,
        `${f(r.conversation.rssIdleMB, 0)} → ${f(r.conversation.rssEndMB, 0)} (${f(r.conversation.rssPeakMB, 0)})`,
        `${f(r.conversation.kbPerCachedWorkflow, 0)} (${f(r.bare.kbPerCachedWorkflow, 0)})`,
        cores(r.conversation.cores),
        cores(r.bare.cores),
      ])
    ),
    '',
    'Goals: throughput ≥ 0.9× the bare no-op workflow driven by the same lanes with update-with-start, wave by wave in the same run; ≤ 512 KB worker RSS per cached conversation. ' +
      'In parentheses, the same bare workflow awaiting one no-op local activity per update (the least a step that archives before it answers costs), and handing its messages to a sink the worker runs after the task, archiving and counting them (the least a step that archives after it answers costs), against the bare one. ' +
      'After the starts: the waves after the first (steps of running workflows). ' +
      `${rows[0]?.inFlight ?? '—'} updates in flight; latency includes queueing behind them. Cores are CPU seconds per wall second of each side's waves, from /proc (machine: every process, other suites included). ` +
      'RSS per cached workflow is an upper bound: the heap is not given back after a collection.',
    '',
    ...rows.map(
      (r) =>
        `- ${r.conversations} on ${r.workers} worker${r.workers > 1 ? 's' : ''}: most CPU, conversation: ${limitNote(r.conversation.cores)}; bare: ${limitNote(r.bare.cores)}.`
    ),
    ...(s.secondWorker && s.rows.find((r) => r.conversations === s.secondWorker!.conversations)
      ? [
          '',
          `A second worker process: ${x(s.secondWorker.conversation.stepsPerSecond / s.rows.find((r) => r.conversations === s.secondWorker!.conversations)!.conversation.stepsPerSecond)} the conversation steps/s of one worker at ${s.secondWorker.conversations} conversations.`,
        ]
      : []),
    '',
  ];
}

interface Totals {
  cost: number;
  input: number;
  summary: number;
  tokens: number;
  prefix: number;
  cached: number;
  folds: number;
  overBudget: number;
  requests: number;
  idKept: number;
  idTotal: number;
  crossings: number;
  /** Billed dollars under each provider's price model. */
  by: Record<PriceModelName, number>;
}

function totals(rows: CostRow[]): Totals {
  const t: Totals = {
    cost: 0,
    input: 0,
    summary: 0,
    tokens: 0,
    prefix: 0,
    cached: 0,
    folds: 0,
    overBudget: 0,
    requests: 0,
    idKept: 0,
    idTotal: 0,
    crossings: 0,
    by: { anthropic: 0, openai: 0, gemini: 0 },
  };
  for (const r of rows) {
    t.input += r.inputCost;
    t.summary += r.summaryCost;
    t.cost += r.inputCost + r.summaryCost;
    t.tokens += r.tokensSent;
    t.prefix += r.prefixTokens;
    t.cached += r.cachedTokens;
    t.folds += r.folds;
    t.overBudget += r.overBudget;
    t.requests += r.requests;
    t.idKept += r.identifiers.kept;
    t.idTotal += r.identifiers.total;
    t.crossings += Math.floor(r.sessionTokens / r.budget);
    // Rows written before the price models were split carry only the headline cost.
    for (const name of Object.keys(t.by) as PriceModelName[]) t.by[name] += r.costBy?.[name] ?? NaN;
  }
  return t;
}

function costSection(dir: string, cost: CostResult): string[] {
  const p = cost.priceModel;
  const models = cost.priceModels ?? PRICE_MODELS;
  const budgets = [...new Set(cost.rows.map((r) => r.budget))];
  const sessions = [...new Set(cost.rows.map((r) => r.session))];
  const out = [
    '## Session cost on the corpus',
    '',
    `All ${sessions.length} corpus sessions replayed request by request (a request before each assistant message), in-process, offline extractive summarizer (deterministic). ` +
      `Headline price model (Anthropic): input $${p.inputPerM}/M tokens, a cache write ${p.writeShare}× that, a cache read ${p.cachedShare}×, output $${p.outputPerM}/M; ` +
      `the provider caches the prefix a request shares with the previous one when it is ≥ ${p.minCachedTokens} tokens. ` +
      `Also priced: ${(Object.keys(models) as PriceModelName[])
        .filter((n) => models[n] !== p)
        .map(
          (n) =>
            `${n} (read ${models[n].cachedShare}×, write ${models[n].writeShare}×, output ${f(models[n].outputPerM / models[n].inputPerM, 1)}× input)`
        )
        .join(', ')}. ` +
      `Summaries are billed as if a model wrote them (reading the folded part at the input price, writing at the output price), though the offline summarizer costs nothing. ` +
      `Cost ratios are to keep-last-20 on the same sessions. "No compaction" is counted only on the sessions where every request fits the budget. ` +
      'Provider-side baselines, simulated by their published rules with their defaults scaled to the budget: OpenAI Responses `truncation: auto` (drop the oldest items once over the window), Anthropic server-side compaction (at 0.75 of the budget, the whole conversation becomes one summary) and Anthropic `clear_tool_uses_20250919` (from half the budget, every tool result but the last 3 becomes a placeholder).',
    '',
  ];
  const goals: string[] = [];
  for (const budget of budgets) {
    const at = cost.rows.filter((r) => r.budget === budget);
    const fits = new Set(
      sessions.filter((s) => at.some((r) => r.session === s && r.strategy === 'no-compaction' && r.overBudget === 0))
    );
    const rowsFor = (s: StrategyName, only?: Set<string>): CostRow[] =>
      at.filter((r) => r.strategy === s && (!only || only.has(r.session)));
    const base = totals(rowsFor('keep-last-20'));
    const baseFits = totals(rowsFor('keep-last-20', fits));
    out.push(`### Budget ${budget / 1000}k`, '');
    out.push(
      ...table(
        [
          'strategy',
          'billed cost vs keep-last-20',
          'OpenAI / Gemini prices',
          'input tokens vs keep-last-20',
          'prefix reused',
          'billed at cache price',
          'summaries',
          'per budget crossing',
          'requests over budget',
          'identifiers kept',
        ],
        STRATEGIES.map((s) => {
          const only = s === 'no-compaction' ? fits : undefined;
          const t = totals(rowsFor(s, only));
          const b = only ? baseFits : base;
          const note = only ? ` (${fits.size}/${sessions.length} sessions fit)` : '';
          return [
            s + note,
            only && fits.size === 0 ? '—' : x(t.cost / b.cost),
            only && fits.size === 0 ? '—' : `${x(t.by.openai / b.by.openai)} / ${x(t.by.gemini / b.by.gemini)}`,
            only && fits.size === 0 ? '—' : x(t.tokens / b.tokens),
            pct(t.prefix / t.tokens),
            pct(t.cached / t.tokens),
            String(t.folds),
            f(t.folds / Math.max(1, t.crossings), 2),
            `${t.overBudget} / ${t.requests}`,
            t.idTotal === 0 ? 'all (none left)' : `${pct(t.idKept / t.idTotal)} (${t.idKept}/${t.idTotal})`,
          ];
        })
      ),
      ''
    );
    const ours = totals(rowsFor('durable-compaction'));
    goals.push(
      `${budget / 1000}k: **${x(ours.cost / base.cost)}** (${f(ours.folds / Math.max(1, ours.crossings), 2)} folds per crossing)`
    );
  }
  out.push(
    `Goal: ≤ 0.5× the keep-last-20 baseline's billed cost with ≤ 1 fold per budget crossing. Measured: ${goals.join('; ')}. ` +
      'A budget crossing is one budget of session tokens (floor(session tokens / budget) per session); "prefix reused" is the share of input tokens that repeat the previous request from its first message; identifiers are those of messages that left the context, found verbatim in the final context.',
    ''
  );
  out.push(...costSummary(cost.rows, budgets), '');
  const plot = cost.rows.filter((r) => r.perRequest);
  if (plot.length > 0) {
    const budget = plot[0]!.budget;
    writeFileSync(
      join(dir, 'context-per-request.svg'),
      lineChart({
        title: `${plot[0]!.session} at ${budget / 1000}k: tokens sent per request`,
        xLabel: 'request',
        yLabel: 'input tokens',
        series: plot.map((r) => ({ name: r.strategy, values: r.perRequest! })),
        hLines: [{ label: 'budget', value: budget }],
      }) + '\n'
    );
    out.push('![context tokens per request](context-per-request.svg)', '');
  }
  out.push('<details><summary>Per session</summary>', '');
  out.push(
    ...table(
      [
        'session',
        'budget',
        'strategy',
        'requests',
        'input tokens',
        'max request',
        'over budget',
        'summaries',
        'prefix reused',
        'billed $',
        'identifiers kept',
      ],
      cost.rows.map((r) => [
        r.session,
        `${r.budget / 1000}k`,
        r.strategy,
        String(r.requests),
        String(r.tokensSent),
        String(r.maxTokens),
        String(r.overBudget),
        String(r.folds),
        pct(r.prefixTokens / r.tokensSent),
        f(r.inputCost + r.summaryCost, 3),
        `${r.identifiers.kept}/${r.identifiers.total}`,
      ])
    ),
    '',
    '</details>',
    ''
  );
  return out;
}

/** One line per strategy over all budgets (the README's table); no compaction only where it fits. */
function costSummary(rows: CostRow[], budgets: number[]): string[] {
  const cell = (s: StrategyName, fn: (t: Totals, base: Totals) => string): string =>
    budgets
      .map((budget) => {
        const at = rows.filter((r) => r.budget === budget);
        const fits = new Set(
          at.filter((r) => r.strategy === 'no-compaction' && r.overBudget === 0).map((r) => r.session)
        );
        const pick = (name: StrategyName): CostRow[] =>
          at.filter((r) => r.strategy === name && (s !== 'no-compaction' || fits.has(r.session)));
        const t = totals(pick(s));
        return t.requests === 0 ? '—' : fn(t, totals(pick('keep-last-20')));
      })
      .join(' / ');
  return [
    `Summary over all sessions, budgets ${budgets.map((b) => `${b / 1000}k`).join(' / ')}:`,
    '',
    ...table(
      [
        'strategy',
        'billed cost vs keep-last-20',
        'prefix reused',
        'summaries per budget crossing',
        'requests over budget',
        'identifiers kept',
      ],
      STRATEGIES.map((s) => [
        s === 'no-compaction' ? 'no compaction (sessions that fit)' : s,
        cell(s, (t, b) => x(t.cost / b.cost)),
        cell(s, (t) => pct(t.prefix / t.tokens)),
        cell(s, (t) => f(t.folds / Math.max(1, t.crossings), 2)),
        cell(s, (t) => `${t.overBudget}`),
        cell(s, (t) => (t.idTotal === 0 ? 'all' : pct(t.idKept / t.idTotal))),
      ])
    ),
  ];
}

/** Writes report.md (and the SVGs) into `dir` from whatever results are there. */
export function writeReport(dir: string, info: RunInfo): void {
  const m = info.machine;
  const lines = [
    '# Benchmark report',
    '',
    `Written by \`npm run bench\` on ${info.date}: ${m.cpus} × ${m.model}, ${f(m.memoryGB, 0)} GB, ${m.os}, Node ${m.node}. ` +
      `The Temporal dev server (in-memory) runs on the same machine. Whole run: ${f(info.totalSeconds / 60, 1)} min (${Object.entries(
        info.seconds
      )
        .map(([k, v]) => `${k} ${f(v, 0)} s`)
        .join(', ')}).`,
    '',
  ];
  const o = read<OverheadResult>(dir, 'overhead.json');
  if (o) lines.push(...overheadSection(dir, o));
  const g = read<GrowthResult>(dir, 'growth.json');
  if (g) lines.push(...growthSection(dir, g));
  const s = read<ScaleResult>(dir, 'scale.json');
  if (s) lines.push(...scaleSection(s));
  const c = read<CostResult>(dir, 'cost.json');
  if (c) lines.push(...costSection(dir, c));
  for (const [file, title] of [
    ['workflow.md', 'Corpus sessions through the workflow'],
    ['tokens.md', 'Token counting (its own header says which run)'],
  ] as const) {
    if (existsSync(join(dir, file))) lines.push(`## ${title}`, '', readFileSync(join(dir, file), 'utf8').trim(), '');
  }
  writeFileSync(join(dir, 'report.md'), lines.join('\n'));
}
