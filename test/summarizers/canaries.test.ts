import assert from 'node:assert/strict';
import { CANARY_TYPES } from '../../bench/canaries/generator';
import type { CanaryReport } from '../../bench/canaries/measure';
import {
  formatReport,
  MAX_SUMMARY_SHARE,
  measureCanaries,
  SMALL_FOLD_MAX_SUMMARY,
  SMALL_FOLD_TOKENS,
} from '../../bench/canaries/measure';
import { plantCanaries } from '../../bench/canaries/plant';
import { runFolds } from '../../bench/canaries/run';
import { maxOutputTokens } from '../../src/summarizers/limits';
import type { Summarizer } from '../../src/summarizers';
import { createTokenCounter } from '../../src/tokens';
import { corpusConversation } from '../support/corpus';

// Issue 13 acceptance at CI size: one session of each agent family, three seeds (every canary type once at every
// position), five folds at decreasing budgets through the real fold path with the offline summarizer. The full table
// (all twelve sessions, six seeds) is `npm run bench canaries`.
const SESSIONS = [
  'claude-code-spotter-ae4a77f8',
  'mini-swe-agent-deepseek-django__django-11797',
  'swe-agent-gpt4-pydicom__pydicom-1458',
  'tau2-bench-gpt41-airline-task18',
];

describe('canary survival through five folds (extractive summary + state ledger)', function () {
  this.timeout(300_000);
  let report: CanaryReport;
  before(async () => {
    report = await measureCanaries({ sessions: SESSIONS, seeds: [0, 1, 2] });
    if (process.env.SHOW_CANARY_TABLE) console.log(formatReport(report));
  });

  it('reaches five folds in every session, and no fold fails', () => {
    for (const s of report.sessions) assert.equal(s.folds, 5, `${s.name}: ${s.folds} folds`);
    assert.equal(report.folds.failed, 0);
  });

  for (const type of CANARY_TYPES) {
    it(`keeps >= 95% of ${type} canaries after five folds`, () => {
      const after5 = report.byType[type][4]!;
      assert.ok(after5.total >= SESSIONS.length * 3 - 1, `only ${after5.total} ${type} canaries measured`);
      assert.ok(after5.kept / after5.total >= 0.95, `${type}: ${after5.kept}/${after5.total}`);
    });
  }

  it('states at most 5% of superseded values', () => {
    assert.ok(
      report.stale.total >= SESSIONS.length * 2,
      `only ${report.stale.total} updates folded with their original`
    );
    assert.ok(report.stale.kept / report.stale.total <= 0.05, `${report.stale.kept}/${report.stale.total}`);
  });

  it('keeps the summary within 15% of the original tokens it stands for, pooled', () => {
    const { summaryTokens, coveredTokens } = report.size;
    assert.ok(summaryTokens / coveredTokens <= MAX_SUMMARY_SHARE, `${summaryTokens} / ${coveredTokens}`);
  });

  it(`keeps every fold's summary within 15% of what it stands for (folds under ${SMALL_FOLD_TOKENS} tokens: at most ${SMALL_FOLD_MAX_SUMMARY} tokens)`, () => {
    assert.ok(report.perFold.folds >= SESSIONS.length * 3 * 3, `only ${report.perFold.folds} folds measured`);
    for (const s of report.sessions) {
      assert.ok(
        s.worstRatio <= MAX_SUMMARY_SHARE,
        `${s.name}: a fold's summary is ${(100 * s.worstRatio).toFixed(1)}%`
      );
      assert.ok(s.smallFoldMaxSummary <= SMALL_FOLD_MAX_SUMMARY, `${s.name}: ${s.smallFoldMaxSummary} tokens`);
    }
  });

  it('can fail: a summary that keeps nothing loses the early canaries (control)', async () => {
    const vague: Summarizer = (req) =>
      Promise.resolve({
        ok: true,
        mode: 'extractive',
        attempts: 1,
        outputTypes: ['extractive'],
        rejected: [],
        text: 'Earlier work on the task happened.',
        summaryTokens: 8,
        retention: { kept: 0, total: 0, bySource: emptySources() },
        retentionBefore: { kept: 0, total: 0, bySource: emptySources() },
        ledger: { appended: 0, omitted: 0 },
        ...(req.budget < 0 ? {} : {}),
      });
    const control = await measureCanaries({ sessions: SESSIONS.slice(0, 1), seeds: [0, 1, 2], summarize: vague });
    const early = control.byPosition.early;
    assert.ok(early.total > 0 && early.kept / early.total < 0.5, `control kept ${early.kept}/${early.total}`);
  });
});

function emptySources() {
  const zero = { kept: 0, total: 0 };
  return { user: zero, assistant: zero, toolArgs: zero, toolResult: zero };
}

describe('folds succeed at small budgets', function () {
  this.timeout(120_000);
  const counter = createTokenCounter({ model: 'gpt-4o' });
  for (const name of ['claude-code-spotter-fa812bfe', 'mini-swe-agent-deepseek-sqlfluff__sqlfluff-1733']) {
    for (const budget of [256, 300, 384, 512, 1024]) {
      it(`${name} at a budget of ${budget}: every fold succeeds within the output cap`, async () => {
        const { messages } = corpusConversation(name);
        const planted = plantCanaries(messages, 200, 7);
        const rounds = await runFolds(planted.messages, { budgets: [budget], folds: 5, counter });
        assert.ok(rounds.length >= 1, 'no fold attempted');
        for (const r of rounds) {
          assert.ok(r.ok, `fold ${r.round} failed`);
          assert.ok(r.summaryTokens < r.foldedTokens, `fold ${r.round}: ${r.summaryTokens} for ${r.foldedTokens}`);
          assert.ok(r.summaryTokens <= maxOutputTokens({}, budget)!, `fold ${r.round}: ${r.summaryTokens} tokens`);
        }
      });
    }
  }
});
