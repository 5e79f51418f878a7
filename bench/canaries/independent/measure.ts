/**
 * The independent canary measure: corpus sessions planted with the independent fact set, folded through the public
 * `fold` command five times at budgets falling ~40% a round, and five times at a fixed budget of 10%, 20% and 30% of
 * the session's original size (the session fed in five parts, one per fold); per fact type, the share whose probes
 * one message of the final context still holds, the superseded values it still states, and whether every fold's
 * context fit its budget, beside the simple baselines at the same final budget.
 */
import type { TokenCounter } from '../../../src/tokens';
import { createTokenCounter } from '../../../src/tokens';
import { corpusConversations } from '../../../test/support/corpus';
import { argumentText } from '../../../src/core/fold/identifiers';
import { checklistBaseline, keepTail } from './baselines';
import type { FactSet } from './facts';
import { valuePattern } from './facts';
import type { PlantedFact, Position } from './plant';
import { plantFacts, POSITIONS } from './plant';
import { cleanUp, publicFold } from './public-fold';

type Message = Record<string, unknown>;

/** A run's schedule: budgets as shares of the original size, and whether the session is fed in parts. */
export interface Scenario {
  name: string;
  shares: number[];
  /** Fed in as many parts as there are folds (fixed budgets); otherwise whole before the first fold. */
  parts: boolean;
}

/** The scenarios of the issue: five folds at budgets falling ~40% a round; fixed budgets of 10%, 20%, 30%. */
export const SCENARIOS: readonly Scenario[] = [
  { name: 'falling', shares: [0.6, 0.36, 0.216, 0.13, 0.078], parts: false },
  { name: 'fixed 30%', shares: [0.3, 0.3, 0.3, 0.3, 0.3], parts: true },
  { name: 'fixed 20%', shares: [0.2, 0.2, 0.2, 0.2, 0.2], parts: true },
  { name: 'fixed 10%', shares: [0.1, 0.1, 0.1, 0.1, 0.1], parts: true },
];

/** A run's last budget has room for facts when the session's instructions take at most this share of it. */
export const ROOMY_SHARE = 0.5;

/** The smallest budget the `fold` command accepts. */
export const MIN_BUDGET = 256;

/** Kept of total. */
export interface Ratio {
  kept: number;
  total: number;
}

/** One method's results in one scenario. */
export interface MethodResult {
  byType: Record<string, Ratio>;
  byPosition: Record<Position, Ratio>;
  bySpeaker: Record<string, Ratio>;
  /** Updates whose first statement left the context, and those whose old value the context still states. */
  stale: Ratio;
  /** Contexts (one per fold, or the final one for a baseline) over their budget, of all. */
  overBudget: Ratio;
  /**
   * Of the fold's contexts over their budget, those the command's output does not say so of (no `overBudget` in the
   * fold record, nor beside a declined fold), of all. Baselines: not counted.
   */
  overUnsaid: Ratio;
  /** Final context tokens over original tokens, summed over runs. */
  size: { tokens: number; original: number };
}

/** The report: per scenario, per method. */
export interface IndependentReport {
  source: string;
  sessions: string[];
  seeds: number[];
  facts: number;
  updates: number;
  scenarios: Record<string, Record<Method, MethodResult>>;
  /**
   * The same, over the runs whose last budget holds the session's instructions (its system messages) at most
   * {@link ROOMY_SHARE} times: elsewhere the instructions alone (which every method keeps) fill the budget or nearly.
   */
  roomy: Record<string, Record<Method, MethodResult> & { runs: Ratio }>;
  /** Folds refused by the command (budget under its minimum) or that failed. */
  refused: number;
}

export type Method = 'fold' | 'keep-tail' | 'checklist';
export const METHODS: readonly Method[] = ['fold', 'keep-tail', 'checklist'];

const empty = (): Ratio => ({ kept: 0, total: 0 });
const emptyResult = (): MethodResult => ({
  byType: {},
  byPosition: Object.fromEntries(POSITIONS.map((p) => [p, empty()])) as Record<Position, Ratio>,
  bySpeaker: {},
  stale: empty(),
  overBudget: empty(),
  overUnsaid: empty(),
  size: { tokens: 0, original: 0 },
});

export const tokensOf = (messages: readonly Message[], counter: TokenCounter): number =>
  counter.countMessages([...messages], 'chat').reduce((a, b) => a + b, 0) + counter.replyPriming;

/** @returns whether a run's last budget has room beside the session's instructions (see {@link ROOMY_SHARE}) */
export const hasRoom = (session: readonly Message[], lastBudget: number, counter: TokenCounter): boolean =>
  tokensOf(
    session.filter((m) => m.role === 'system'),
    counter
  ) <=
  ROOMY_SHARE * lastBudget;

/** The text of one message as the model reads it: its content and its calls' arguments, lower-cased. */
export function messageText(m: Message): string {
  const content = typeof m.content === 'string' ? m.content : m.content == null ? '' : JSON.stringify(m.content);
  const calls = Array.isArray(m.tool_calls) ? (m.tool_calls as { function?: { arguments?: string } }[]) : [];
  return [content, ...calls.map((c) => argumentText(c.function?.arguments ?? ''))].join('\n').toLowerCase();
}

/** @returns whether one message of the context holds every probe group of `p` (each by one of its alternatives) */
export function holds(texts: readonly string[], p: PlantedFact): boolean {
  const groups = p.probes.map((g) => g.map((x) => (p.update ? valuePattern(x) : x.toLowerCase())));
  return texts.some((t) => groups.every((g) => g.some((x) => (typeof x === 'string' ? t.includes(x) : x.test(t)))));
}

// Words too common to tie a line to a statement's subject.
const COMMON = new Set(
  'that this these those with from have keep under only about into than then them they what when where which will would could should there their your just like also been were some more most much very over after before'.split(
    ' '
  )
);

/** @returns the words of at least four letters of `text`, lower-cased, without common ones */
const subjectWordsOf = (text: string): Set<string> =>
  new Set((text.toLowerCase().match(/[a-z]{4,}/g) ?? []).filter((w) => !COMMON.has(w)));

/**
 * Whether the context states an update's replaced value in a message the method wrote (a summary, a checklist),
 * counted only once both the first statement and the later one have left the context: until the later one is folded,
 * the method has not seen the update (and the context still says it verbatim). The value counts as stated on a line
 * that also names the first statement's subject (a word of it beside the value): "64 kb ram" does not state an old GPU
 * quota of 64, nor "max_cases: 32" in a test log an old batch size of 32.
 *
 * @returns `undefined` when the first or the later statement is still verbatim in the context (not eligible)
 */
export function statesStale(
  context: readonly Message[],
  p: PlantedFact,
  session: readonly Message[]
): boolean | undefined {
  if (!p.update) return undefined;
  const inContext = new Set(context.map((m) => JSON.stringify(m)));
  if (inContext.has(JSON.stringify(session[p.update.firstAt])) || inContext.has(JSON.stringify(session[p.at])))
    return undefined;
  const original = new Set(session.map((m) => JSON.stringify(m)));
  const values = p.update.oldValue.map(valuePattern);
  const valueWords = subjectWordsOf(p.update.oldValue.join(' '));
  const subject = [...subjectWordsOf(p.update.first)].filter((w) => !valueWords.has(w));
  const aboutSubject = (line: string): boolean => subject.length === 0 || subject.some((w) => line.includes(w));
  return context.some(
    (m) =>
      !original.has(JSON.stringify(m)) &&
      messageText(m)
        .split('\n')
        .some((line) => values.some((v) => v.test(line)) && aboutSubject(line))
  );
}

function score(
  result: MethodResult,
  context: readonly Message[],
  planted: readonly PlantedFact[],
  session: readonly Message[],
  counter: TokenCounter,
  original: number
): void {
  const texts = context.map(messageText);
  for (const p of planted) {
    const kept = holds(texts, p) ? 1 : 0;
    for (const [map, key] of [
      [result.byType, p.type],
      [result.byPosition, p.position],
      [result.bySpeaker, p.speaker],
    ] as const) {
      const cell = ((map as Record<string, Ratio>)[key] ??= empty());
      cell.total += 1;
      cell.kept += kept;
    }
    if (p.update) {
      const stale = statesStale(context, p, session);
      if (stale !== undefined) {
        result.stale.total += 1;
        result.stale.kept += stale ? 1 : 0;
      }
    }
  }
  result.size.tokens += tokensOf(context, counter);
  result.size.original += original;
}

/** Splits a session into `n` parts of about equal message counts, never between a call and its result. */
export function parts(messages: readonly Message[], n: number): Message[][] {
  const cuts: number[] = [];
  for (let k = 1; k < n; k++) {
    let c = Math.round((messages.length * k) / n);
    while (c < messages.length && messages[c]!.role === 'tool') c += 1;
    cuts.push(c);
  }
  const bounds = [0, ...cuts, messages.length];
  return bounds.slice(0, -1).map((b, k) => messages.slice(b, bounds[k + 1]));
}

/** Options of {@link measureIndependent}. */
export interface IndependentOptions {
  facts: FactSet;
  /** Where the fact set came from (for the report). */
  source: string;
  sessions?: readonly string[];
  seeds?: readonly number[];
  scenarios?: readonly Scenario[];
  /** Facts of each type (and updates) planted per run, drawn in turn from the set. @default 2 */
  perType?: number;
}

/**
 * Picks the facts of run `r`: `perType` of each type, rotating through each type's facts, and `perType` updates.
 *
 * @returns the facts and updates of the run
 */
export function factsOfRun(set: FactSet, r: number, perType = 2): Pick<FactSet, 'facts' | 'updates'> {
  const types = [...new Set(set.facts.map((f) => f.type))].sort();
  const facts = Array.from({ length: perType }, (_, k) =>
    types.map((t) => {
      const of = set.facts.filter((f) => f.type === t);
      return of[(r * perType + k) % of.length]!;
    })
  ).flat();
  const updates = Array.from(
    { length: Math.min(perType, set.updates.length) },
    (_, k) => set.updates[(r * perType + k) % set.updates.length]!
  );
  return { facts, updates };
}

/**
 * Runs the measure.
 *
 * @returns the report
 */
export async function measureIndependent(options: IndependentOptions): Promise<IndependentReport> {
  const counter = createTokenCounter({ model: 'gpt-4o' });
  const seeds = options.seeds ?? [0, 1, 2];
  const scenarios = options.scenarios ?? SCENARIOS;
  const sessions = corpusConversations().filter((c) => !options.sessions || options.sessions.includes(c.name));
  const report: IndependentReport = {
    source: options.source,
    sessions: sessions.map((s) => s.name),
    seeds: [...seeds],
    facts: options.facts.facts.length,
    updates: options.facts.updates.length,
    scenarios: Object.fromEntries(
      scenarios.map((s) => [s.name, Object.fromEntries(METHODS.map((m) => [m, emptyResult()]))])
    ) as IndependentReport['scenarios'],
    roomy: Object.fromEntries(
      scenarios.map((s) => [s.name, { ...Object.fromEntries(METHODS.map((m) => [m, emptyResult()])), runs: empty() }])
    ) as IndependentReport['roomy'],
    refused: 0,
  };
  let run = 0;
  try {
    for (const { messages } of sessions) {
      for (const seed of seeds) {
        const chosen = factsOfRun(options.facts, run++, options.perType);
        const planted = plantFacts(messages, chosen.facts, chosen.updates, seed);
        const original = tokensOf(planted.messages, counter);
        for (const sc of scenarios) {
          const budgets = sc.shares.map((s) => Math.max(MIN_BUDGET, Math.round(s * original)));
          const feed = sc.parts ? parts(planted.messages, budgets.length) : [planted.messages];
          const last = budgets[budgets.length - 1]!;
          const roomy = report.roomy[sc.name]!;
          roomy.runs.total += 1;
          const room = hasRoom(planted.messages, last, counter);
          roomy.runs.kept += room ? 1 : 0;
          const sinks = room ? [report.scenarios[sc.name]!, roomy] : [report.scenarios[sc.name]!];
          let context: Message[] = [];
          for (let k = 0; k < budgets.length; k++) {
            context = [...context, ...(feed[k] ?? [])];
            const folded = await publicFold(context, budgets[k]!);
            if (folded.refused) report.refused += 1;
            context = folded.messages;
            const over = tokensOf(context, counter) > budgets[k]!;
            const unsaid = over && !folded.record?.overBudget && !folded.overBudget;
            for (const results of sinks) {
              results.fold.overBudget.total += 1;
              results.fold.overUnsaid.total += 1;
              results.fold.overBudget.kept += over ? 1 : 0;
              results.fold.overUnsaid.kept += unsaid ? 1 : 0;
            }
          }
          const tail = keepTail(planted.messages, last, counter).messages;
          const list = checklistBaseline(planted.messages, last, counter);
          for (const results of sinks) {
            score(results.fold, context, planted.planted, planted.messages, counter, original);
            for (const [method, ctx] of [
              ['keep-tail', tail],
              ['checklist', list],
            ] as const) {
              results[method].overBudget.total += 1;
              if (tokensOf(ctx, counter) > last) results[method].overBudget.kept += 1;
              score(results[method], ctx, planted.planted, planted.messages, counter, original);
            }
          }
        }
      }
    }
  } finally {
    cleanUp();
  }
  return report;
}

const pct = (r: Ratio | undefined): string =>
  !r || r.total === 0 ? 'n/a' : `${((100 * r.kept) / r.total).toFixed(0)}% (${r.kept}/${r.total})`;

/** @returns the report as Markdown: per scenario, a table of type × method, then stale values and budget fit */
export function formatIndependent(report: IndependentReport): string {
  const out: string[] = [
    `Fact set: ${report.source} (${report.facts} facts, ${report.updates} updates). Sessions: ${report.sessions.length}, seeds: ${report.seeds.join(', ')}. Folds refused by the command: ${report.refused}.`,
    '',
  ];
  for (const [name, results] of Object.entries(report.scenarios)) {
    const types = [...new Set(METHODS.flatMap((m) => Object.keys(results[m].byType)))].sort();
    out.push(`**${name}** (kept after the last fold, per fact type)`, '');
    out.push(`| type | ${METHODS.join(' | ')} |`, `|---|${METHODS.map(() => '---').join('|')}|`);
    for (const t of types) out.push(`| ${t} | ${METHODS.map((m) => pct(results[m].byType[t])).join(' | ')} |`);
    for (const p of POSITIONS)
      out.push(`| _${p}_ | ${METHODS.map((m) => pct(results[m].byPosition[p])).join(' | ')} |`);
    const speakers = [...new Set(METHODS.flatMap((m) => Object.keys(results[m].bySpeaker)))].sort();
    for (const s of speakers)
      out.push(`| _said by ${s}_ | ${METHODS.map((m) => pct(results[m].bySpeaker[s])).join(' | ')} |`);
    out.push(`| superseded value stated | ${METHODS.map((m) => pct(results[m].stale)).join(' | ')} |`);
    out.push(`| contexts over budget | ${METHODS.map((m) => pct(results[m].overBudget)).join(' | ')} |`);
    out.push(
      `| over budget, no fold record saying so | ${METHODS.map((m) => pct(results[m].overUnsaid)).join(' | ')} |`
    );
    out.push(
      `| final size / original | ${METHODS.map((m) => `${((100 * results[m].size.tokens) / Math.max(1, results[m].size.original)).toFixed(1)}%`).join(' | ')} |`,
      ''
    );
    const roomy = report.roomy[name];
    if (!roomy) continue;
    out.push(
      `_${name}, the ${roomy.runs.kept} of ${roomy.runs.total} runs whose instructions take at most ${ROOMY_SHARE * 100}% of the last budget_`,
      '',
      `| type | ${METHODS.join(' | ')} |`,
      `|---|${METHODS.map(() => '---').join('|')}|`
    );
    for (const t of types) out.push(`| ${t} | ${METHODS.map((m) => pct(roomy[m].byType[t])).join(' | ')} |`);
    out.push(`| superseded value stated | ${METHODS.map((m) => pct(roomy[m].stale)).join(' | ')} |`);
    out.push(`| contexts over budget | ${METHODS.map((m) => pct(roomy[m].overBudget)).join(' | ')} |`, '');
  }
  return out.join('\n');
}
