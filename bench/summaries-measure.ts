/**
 * Measures the extractive summarizer (plus ledger) on the three Claude Code sessions of the corpus against Claude
 * Code's own summaries of the same sessions: identifier retention per source and summary size in tokens.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { collectIdentifiers } from '../src/core/fold/identifiers';
import type { RetentionCount } from '../src/core/fold/identifier-ledger';
import { measureRetention } from '../src/core/fold/identifier-ledger';
import { normalize } from '../src/core/messages/normalize';
import { planFold } from '../src/core/plan/plan';
import { createSummarizer } from '../src/summarizers';
import type { SummarizerConfig } from '../src/summarizers';
import { createTokenCounter } from '../src/tokens';

/** The three sessions Claude Code compacted on its own, with its summaries in reference-summaries/. */
export const CLAUDE_CODE_SESSIONS = [
  'claude-code-spotter-4d5611e5',
  'claude-code-spotter-ae4a77f8',
  'claude-code-spotter-fa812bfe',
] as const;

/**
 * How the head is chosen. `plan`: planFold with the default policy and a budget equal to the session's own size (so
 * the 0.9 trigger fires). `whole`: everything but the last 4 items (policy `items`), the prefix Claude Code summarised.
 */
export type Scenario = 'plan' | 'whole';

/** One row of the comparison. */
export interface SessionMeasure {
  session: string;
  scenario: Scenario;
  messages: number;
  foldedItems: number;
  foldedTokens: number;
  summaryTokens: number;
  referenceTokens: number;
  /** Identifiers in user messages, assistant prose or tool-call arguments (the acceptance set). */
  core: RetentionCount;
  /** The same set before the ledger (the digest alone). */
  coreBeforeLedger: RetentionCount;
  /** The same set as kept by Claude Code's own summary. */
  coreInReference: RetentionCount;
  user: RetentionCount;
  assistant: RetentionCount;
  toolArgs: RetentionCount;
  toolResult: RetentionCount;
  toolResultInReference: RetentionCount;
  text: string;
}

const sharedDir = resolve(process.env.SHARED_DIR ?? join(__dirname, '..', '..', 'shared'));

function ratio(text: string, ids: ReturnType<typeof collectIdentifiers>): RetentionCount {
  const r = measureRetention(text, ids);
  return { kept: r.kept, total: r.total };
}

/**
 * Folds one session and measures the summary.
 *
 * @returns the row
 * @throws Error when the plan does not fold or the summarizer fails unfolded
 */
export async function measureSession(
  session: string,
  scenario: Scenario,
  config: SummarizerConfig = {}
): Promise<SessionMeasure> {
  const model = 'gpt-4o';
  const counter = createTokenCounter({ model });
  const dir = join(sharedDir, 'corpus');
  const messages = JSON.parse(readFileSync(join(dir, 'conversations', `${session}.json`), 'utf8')) as unknown[];
  const reference = readFileSync(join(dir, 'reference-summaries', `${session}.summary.md`), 'utf8');
  const transcript = normalize(messages, 'chat');
  const tokens = counter.countMessages(messages, 'chat');
  const budget = tokens.reduce((a, b) => a + b, 0);
  const options = scenario === 'plan' ? { budget } : { budget, policy: 'items' as const, keepLast: 4 };
  const plan = planFold({ transcript, tokens, options });
  if (!plan.fold) throw new Error(`${session}: the plan does not fold: ${plan.reason}`);
  const head = plan.summarize.map((i) => messages[i]);
  const summarize = createSummarizer(config, { counterFor: () => counter });
  const res = await summarize({ format: 'chat', messages: head, budget, model, foldedTokens: plan.foldedTokens });
  if (!res.ok || res.text === undefined) throw new Error(`${session}: fold failed: ${JSON.stringify(res)}`);

  // Recomputed here from the head, not taken from the summarizer's own report.
  const ids = collectIdentifiers(normalize(head, 'chat').items);
  const core = ids.filter((i) => i.sources.some((s) => s !== 'toolResult'));
  const of = (s: string) => ids.filter((i) => (i.sources as string[]).includes(s));
  const beforeLedger = res.text.split('\n\nIdentifiers from the folded part, verbatim:')[0] ?? res.text;
  return {
    session,
    scenario,
    messages: messages.length,
    foldedItems: head.length,
    foldedTokens: plan.foldedTokens,
    summaryTokens: counter.countText(res.text),
    referenceTokens: counter.countText(reference),
    core: ratio(res.text, core),
    coreBeforeLedger: ratio(beforeLedger, core),
    coreInReference: ratio(reference, core),
    user: ratio(res.text, of('user')),
    assistant: ratio(res.text, of('assistant')),
    toolArgs: ratio(res.text, of('toolArgs')),
    toolResult: ratio(res.text, of('toolResult')),
    toolResultInReference: ratio(reference, of('toolResult')),
    text: res.text,
  };
}

const pct = (r: RetentionCount): string =>
  r.total === 0 ? 'n/a' : `${((100 * r.kept) / r.total).toFixed(1)}% (${r.kept}/${r.total})`;

/**
 * Formats rows as a Markdown table.
 *
 * @returns the table
 */
export function formatTable(rows: readonly SessionMeasure[]): string {
  const head = [
    '| session | fold | folded items / tokens | summary tokens | Claude Code summary tokens | user+prose+args kept (ledger / digest alone / Claude Code) | user | prose | tool args | tool results (ours / Claude Code) |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  const lines = rows.map((r) =>
    [
      r.session.replace('claude-code-spotter-', ''),
      r.scenario,
      `${r.foldedItems} / ${r.foldedTokens}`,
      String(r.summaryTokens),
      String(r.referenceTokens),
      `${pct(r.core)} / ${pct(r.coreBeforeLedger)} / ${pct(r.coreInReference)}`,
      pct(r.user),
      pct(r.assistant),
      pct(r.toolArgs),
      `${pct(r.toolResult)} / ${pct(r.toolResultInReference)}`,
    ].join(' | ')
  );
  return [...head, ...lines.map((l) => `| ${l} |`)].join('\n');
}
