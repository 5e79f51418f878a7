import { strict as assert } from 'node:assert';
import { Worker } from '@temporalio/worker';
import { conversationSinks } from '../../../src/metrics/sinks';
import { createCountTokensActivity, type CountTokensInput } from '../../../src/activities/count-tokens';
import { createSummarizeActivity, type SummarizeInput } from '../../../src/activities/summarize';
import { isMarkedSummary } from '../../../src/core/messages/text';
import { createTokenCounter } from '../../../src/tokens';
import type { AgentLoopInput, AgentLoopResult, AgentStep } from '../../support/agent-loop-example';
import { foldedMemory, PrefixMatcher, viewOf } from '../../../src/workflows/compactor/compactor-memory';
import { initialCompactorState, parseCompactorState } from '../../../src/workflows/compactor/compactor-state';
import {
  COMPACTOR_FOLD_TARGET,
  COMPACTOR_SUMMARY_RESERVE,
  planningWithTarget,
} from '../../../src/workflows/compactor/compactor-target';
import { prefixHash } from '../../../src/core/hash';
import { summaryKey } from '../../../src/core/fold/state-ledger';
import type { SummarizerProfiles } from '../../../src/summarizers/profiles';
import { useOpenAIServer } from '../../support/openai-server';
import { TEST_CHAT_PROFILE, testProfiles } from '../../support/profiles';
import { workflowBundle, withWorker } from '../../support/temporal';
import { system, user } from '../../support/shop-conversation';

const counter = createTokenCounter({ model: 'gpt-4o' });
const contextTokens = (messages: unknown[]): number =>
  counter.countMessages(messages, 'chat').reduce((a, b) => a + b, 0) + counter.replyPriming;

const turns = (from: number, to: number): AgentStep[] =>
  Array.from({ length: to - from }, (_, k) => ({ append: [user(from + k)] }));
const isSummary = (m: unknown): boolean => {
  const c = (m as { content?: unknown }).content;
  return typeof c === 'string' && isMarkedSummary(c);
};

/**
 * The two activities the compactor calls, built without any archive, wrapped to count their calls and the messages
 * counted.
 */
function countingActivities(env: Record<string, string> = {}, profiles?: SummarizerProfiles) {
  const countTokens = createCountTokensActivity();
  const summarize = createSummarizeActivity({ env, ...(profiles ? { profiles } : {}) });
  const calls = {
    countTokens: 0,
    counted: 0,
    summarize: 0,
    summaries: [] as { input: SummarizeInput; output: Awaited<ReturnType<typeof summarize>> }[],
  };
  return {
    calls,
    activities: {
      async countTokens(input: CountTokensInput) {
        calls.countTokens++;
        calls.counted += input.messages.length;
        return countTokens(input);
      },
      async summarize(input: SummarizeInput) {
        calls.summarize++;
        const output = await summarize(input);
        calls.summaries.push({ input, output });
        return output;
      },
    },
  };
}

let ids = 0;
/**
 * Runs the example agent loop to its end on a fresh worker, then replays the last run's history against the same
 * bundle (a replay that diverged would throw), so every test also checks the compactor is deterministic.
 */
async function runLoop(
  input: AgentLoopInput,
  env: Record<string, string> = {},
  profiles?: SummarizerProfiles
): Promise<{ result: AgentLoopResult; calls: ReturnType<typeof countingActivities>['calls'] }> {
  const { calls, activities } = countingActivities(env, profiles);
  const result = await withWorker({ activities }, async ({ env: testEnv, taskQueue }) => {
    const handle = await testEnv.client.workflow.start('compactingAgentWorkflow', {
      taskQueue,
      workflowId: `compactor-${process.pid}-${++ids}-${Date.now().toString(36)}`,
      args: [input],
    });
    const out = (await handle.result()) as AgentLoopResult;
    const history = await testEnv.client.workflow.getHandle(handle.workflowId).fetchHistory();
    await Worker.runReplayHistory({ workflowBundle: await workflowBundle(), sinks: conversationSinks() }, history);
    return out;
  });
  return { result, calls };
}

describe('the embeddable compactor', function () {
  this.timeout(120_000);

  it('under budget: no summary call, and the context sent is the transcript itself', async () => {
    const steps: AgentStep[] = [{ append: [system, user(0)] }, ...turns(1, 4)];
    const { result, calls } = await runLoop({ steps, compactor: { budget: 100_000, format: 'chat' } });
    assert.equal(calls.summarize, 0);
    assert.deepEqual(result.lastContext, result.transcript.slice(0, -1));
    for (const t of result.log) {
      assert.equal(t.report.sent, t.report.messages, 'every message is sent as it is');
      assert.equal(t.report.reused, false);
    }
    assert.deepEqual(result.folds, []);
    // Only new messages are counted: each message once, never the whole transcript per turn.
    assert.equal(calls.counted, result.transcript.length - 1);
  });

  it('over budget: folds, one summary serves the next turns, and a later fold folds the summary again', async () => {
    const budget = 2000;
    const steps: AgentStep[] = [{ append: [system, user(0)] }, ...turns(1, 10)];
    // At half the budget (the target state saved before COMPACTOR_FOLD_TARGET folds to), ten turns fold twice.
    const { result, calls } = await runLoop({ steps, compactor: { budget, format: 'chat', targetRatio: 0.5 } });
    const foldTurns = result.log.filter((t) => t.report.fold).map((t) => t.step);
    assert.equal(foldTurns.length, 2, `folds at turns ${foldTurns.join(', ')}`);
    assert.equal(calls.summarize, 2, 'one summary call per fold');
    assert.ok(
      result.folds.every((f) => f.ok),
      result.folds.map((f) => f.error?.message).join('; ')
    );
    const between = result.log.filter((t) => t.step > foldTurns[0]! && t.step < foldTurns[1]!);
    assert.ok(between.length >= 2, `the first fold serves ${between.length} later turn(s)`);
    for (const t of between) {
      assert.equal(t.report.reused, true);
      assert.ok(t.report.sent < t.report.messages, 'the folded prefix is not sent');
    }
    // The context: instructions hoisted, one summary (the first was folded into the second), then the transcript
    // from the remembered prefix on.
    const memory = result.state.memory!;
    assert.deepEqual(result.lastContext, [...memory.output, ...result.transcript.slice(memory.prefixLen, -1)]);
    assert.deepEqual(result.lastContext[0], system);
    assert.ok(isSummary(result.lastContext[1]));
    assert.equal(result.lastContext.filter(isSummary).length, 1, 'summaries are not stacked');
    assert.equal(memory.prefixHash, prefixHash(result.transcript.slice(0, memory.prefixLen)));
    assert.ok(contextTokens(result.lastContext) <= budget);
    for (const t of result.log) assert.ok(t.report.tokens <= budget, `turn ${t.step}: ${t.report.tokens} tokens`);
    // Each message is counted once, plus each summary: no recount of the transcript per turn.
    assert.equal(calls.counted, result.transcript.length - 1 + 2);
  });

  it('forgets the fold when the prefix changes (a rewind into it, another transcript) and folds anew', async () => {
    const steps: AgentStep[] = [
      { append: [system, user(0)] },
      ...turns(1, 8),
      // Rewound into the folded prefix and asked something else: the remembered fold no longer applies.
      { truncateTo: 1, append: [user(100)] },
      ...turns(101, 109),
    ];
    const { result, calls } = await runLoop({ steps, compactor: { budget: 2000, format: 'chat' } });
    const rewound = result.log.find((t) => t.step === 8)!;
    assert.equal(rewound.report.forgot, true);
    assert.equal(rewound.report.reused, false);
    assert.equal(rewound.report.sent, rewound.report.messages, 'sent unfolded: 3 messages fit the budget');
    assert.equal(calls.summarize, 2, 'the new conversation needs its own summary');
    assert.ok(result.folds.every((f) => f.ok));
    assert.ok(result.log.findIndex((t) => t.step > 8 && t.report.fold) > 0);
    assert.ok(!JSON.stringify(result.lastContext).includes('Request 1:'), 'nothing of the old conversation is sent');
  });

  it('carries its state across the caller’s continue-as-new: the fold is reused, with no second summary', async () => {
    // One fold (at turn 5), then three turns that reuse it, over four runs of three turns.
    const steps: AgentStep[] = [{ append: [system, user(0)] }, ...turns(1, 9)];
    const { result, calls } = await runLoop({ steps, turnsPerRun: 3, compactor: { budget: 2000, format: 'chat' } });
    assert.ok(result.runs >= 3, `ran in ${result.runs} run(s)`);
    assert.equal(calls.summarize, 1);
    const folded = result.log.find((t) => t.report.fold)!;
    const reusedLater = result.log.filter((t) => t.run > folded.run && t.report.reused);
    assert.ok(reusedLater.length >= 1, 'a later run sends the fold made in an earlier one');
    // Counts travel too: nothing is counted twice after a hand-over.
    assert.equal(calls.counted, result.transcript.length - 1 + 1);
    assert.deepEqual(JSON.parse(JSON.stringify(result.state)), result.state, 'the state is plain JSON');
  });

  it('carries the state ledger of each fold to the next, across the caller’s continue-as-new', async () => {
    const steps: AgentStep[] = [{ append: [system, user(0)] }, ...turns(1, 12)];
    const { result, calls } = await runLoop({ steps, turnsPerRun: 3, compactor: { budget: 2000, format: 'chat' } });
    const [first, second] = calls.summaries;
    assert.ok(first && second, `expected two folds, got ${calls.summaries.length}`);
    assert.equal(first.input.ledger, undefined, 'the first fold has nothing to carry');
    assert.ok(first.output.ok && first.output.carry, 'a fold returns its ledger');
    assert.equal(first.output.carry.summaryKey, summaryKey(first.output.text!));
    assert.deepEqual(second.input.ledger, first.output.carry, 'the next fold merges it');
    const foldRuns = result.log.filter((t) => t.report.fold).map((t) => t.run);
    assert.ok(foldRuns.length >= 2 && foldRuns[0] !== foldRuns[1], `folds in runs ${foldRuns.join(', ')}`);
    const last = calls.summaries[calls.summaries.length - 1]!.output;
    assert.ok(last.ok);
    assert.deepEqual(result.state.ledger, last.carry, 'the state holds the last fold’s ledger');
    assert.equal(
      result.state.ledger!.summaryKey,
      summaryKey((result.lastContext.find(isSummary) as { content: string }).content)
    );
  });

  it('calibrates its estimate by the input tokens the provider reports', async () => {
    const steps: AgentStep[] = [
      { append: [system, user(0)], reportedInputTokens: 5000 },
      { append: [user(1)], reportedInputTokens: 5000 },
      { append: [user(2)] },
    ];
    const { result } = await runLoop({ steps, compactor: { budget: 100_000, format: 'chat' } });
    const counted = contextTokens(result.lastContext);
    const estimated = result.log[2]!.report.tokens;
    // Each report moves the estimate by at most 20%, so two reports of far more raise it, within bounds.
    assert.ok(estimated > counted, `estimate ${estimated} vs counted ${counted}`);
    assert.ok(estimated <= Math.ceil(counted * 1.2 * 1.2) + 1, `estimate ${estimated} vs counted ${counted}`);
    assert.equal(result.state.calibration?.samples, 2);
  });

  it('folds a new state to a quarter of the budget, and state saved before that to half of it', async () => {
    const budget = 2000;
    const steps: AgentStep[] = [{ append: [system, user(0)] }, ...turns(1, 10)];
    const { foldTarget: _dropped, summaryReserve: _reserve, ...saved } = initialCompactorState();
    const fresh = await runLoop({ steps, compactor: { budget, format: 'chat' } });
    const old = await runLoop({
      steps,
      compactor: { budget, format: 'chat' },
      carried: { next: 0, run: 0, transcript: [], compactor: saved, log: [] },
    });
    assert.equal(fresh.result.state.foldTarget, COMPACTOR_FOLD_TARGET);
    assert.equal(old.result.state.foldTarget, undefined, 'saved state keeps the target it had');
    assert.equal(old.result.state.summaryReserve, undefined, 'and the reserve it had');
    const afterFold = (r: AgentLoopResult) => r.log.find((t) => t.report.fold)!.report.tokens;
    assert.ok(afterFold(fresh.result) <= 0.4 * budget, `fresh state: ${afterFold(fresh.result)} tokens after its fold`);
    assert.ok(
      afterFold(fresh.result) < afterFold(old.result),
      `fresh state ${afterFold(fresh.result)} vs saved state ${afterFold(old.result)} tokens after the fold`
    );
    assert.ok(fresh.calls.summarize <= old.calls.summarize, 'the lower target folds no more often');
  });

  describe('with a summarizer that fails', () => {
    const server = useOpenAIServer();
    const options = {
      budget: 2000,
      format: 'chat' as const,
      summarizer: { profile: TEST_CHAT_PROFILE },
    };
    const env = { DC_TEST_KEY: 'sk-test-secret' };

    /** Runs the loop past the fold trigger (one fold, then a turn after it) with the summarizer as scripted. */
    const runPastTrigger = () => {
      const steps: AgentStep[] = [
        { append: [system, user(0)] },
        ...turns(1, 7),
        { append: [{ role: 'user', content: 'ok' }] },
      ];
      return runLoop({ steps, compactor: options }, env, testProfiles(server.baseURL));
    };

    it('sends the context unfolded after an unusable summary, and backs off the same prefix', async () => {
      server.script({ kind: 'empty' }, { kind: 'empty' });
      const { result, calls } = await runPastTrigger();
      const failed = result.log.find((t) => t.report.fold)!;
      assert.equal(failed.report.fold!.ok, false);
      assert.equal(failed.report.fold!.error?.kind, 'no_text');
      assert.equal(failed.report.sent, failed.report.messages, 'sent unfolded');
      assert.equal(server.requests.length, 2, 'asked once more, then gave up');
      assert.equal(calls.summarize, 1);
      const last = result.log[result.log.length - 1]!;
      assert.ok(last.step > failed.step, 'a turn after the failure');
      assert.match(last.report.decision, /backing off/);
      assert.equal(last.report.sent, last.report.messages);
      assert.ok(result.state.backoff, 'the failure is remembered in state');
      assert.equal(result.folds[0]!.attempts, 2);
      assert.equal(result.state.memory, null);
    });

    it('sends unfolded and backs off when the provider refuses (the activity fails)', async () => {
      server.script({ kind: 'status', status: 400, message: 'bad request' });
      const { result, calls } = await runPastTrigger();
      const failed = result.log.find((t) => t.report.fold)!;
      assert.equal(failed.report.fold!.error?.kind, 'provider');
      assert.equal(failed.report.sent, failed.report.messages);
      assert.equal(calls.summarize, 1, 'a refusal is not retried');
      assert.match(result.log[result.log.length - 1]!.report.decision, /backing off/);
      assert.ok(result.state.lastError?.message.includes('provider'));
    });
  });
});

describe('compactor memory and state (pure)', () => {
  it('takes the default fold target only where the caller set none and the auto policy folds below the trigger', () => {
    assert.deepEqual(planningWithTarget({ budget: 1000 }, 0.25), { budget: 1000, targetRatio: 0.25 });
    assert.deepEqual(planningWithTarget({ budget: 1000 }, undefined), { budget: 1000 });
    assert.deepEqual(planningWithTarget({ budget: 1000, targetRatio: 0.6 }, 0.25).targetRatio, 0.6);
    assert.equal(planningWithTarget({ budget: 1000, policy: 'tokens' }, 0.25).targetRatio, undefined);
    assert.equal(planningWithTarget({ budget: 1000, triggerRatio: 0.25 }, 0.25).targetRatio, undefined);
    assert.equal(planningWithTarget({ budget: 1000, triggerRatio: 0.3 }, 0.25).targetRatio, 0.25);
  });

  it('takes the recorded summary reserve where the caller set none and the policy is auto', () => {
    assert.equal(planningWithTarget({ budget: 1000 }, 0.25, 'carried').summaryReserve, 'carried');
    assert.equal(planningWithTarget({ budget: 1000 }, undefined, 'carried').summaryReserve, 'carried');
    assert.equal(planningWithTarget({ budget: 1000 }, 0.25, undefined).summaryReserve, undefined);
    assert.equal(
      planningWithTarget({ budget: 1000, summaryReserve: 'fixed' }, 0.25, 'carried').summaryReserve,
      'fixed'
    );
    assert.equal(planningWithTarget({ budget: 1000, policy: 'tokens' }, 0.25, 'carried').summaryReserve, undefined);
    assert.equal(initialCompactorState().summaryReserve, COMPACTOR_SUMMARY_RESERVE);
  });

  it('remembers a fold whose instructions were hoisted out of the tail as part of its output', () => {
    const a = { role: 'user', content: 'a' };
    const b = { role: 'assistant', content: 'b' };
    const late = { role: 'system', content: 'late instructions' };
    const c = { role: 'user', content: 'c' };
    const messages = [a, b, late, c];
    const matcher = new PrefixMatcher();
    const v = viewOf(null, messages, matcher);
    const summary = { role: 'user', content: '[Summary of the earlier conversation] …' };
    // What applyFold gives for a cut at 2: hoisted `late`, the summary, then the tail without `late`.
    const m = foldedMemory(messages, v, [late, summary, c]);
    assert.equal(m.prefixLen, 3);
    assert.deepEqual(m.output, [late, summary]);
    const memory = { prefixLen: m.prefixLen, prefixHash: prefixHash(m.prefix), output: m.output };
    const next = viewOf(memory, [...messages, b], matcher);
    assert.deepEqual(next.view, [late, summary, c, b]);
    // Equal content in new objects (as after continue-as-new) still matches; a change does not.
    assert.equal(viewOf(memory, JSON.parse(JSON.stringify(messages)), new PrefixMatcher()).base, 3);
    assert.equal(viewOf(memory, [a, { ...b, content: 'B' }, late, c], matcher).forgot, true);
  });

  it('rejects saved state that is not a compactor’s, and accepts its own', () => {
    const s = initialCompactorState();
    assert.deepEqual(parseCompactorState(JSON.parse(JSON.stringify(s))), s);
    assert.throws(() => parseCompactorState({ ...s, counts: { k: -1 } }), /'counts'/);
    assert.throws(() => parseCompactorState({ ...s, foldTarget: 1 }), /'foldTarget'/);
    const { foldTarget: _dropped, ...older } = s;
    assert.equal(parseCompactorState(older).foldTarget, undefined);
    assert.throws(() => parseCompactorState({ ...s, summaryReserve: 'grow' }), /'summaryReserve'/);
    const { summaryReserve: _reserve, ...beforeReserve } = s;
    assert.equal(parseCompactorState(beforeReserve).summaryReserve, undefined);
    assert.throws(() => parseCompactorState({ v: 2 }), /'v'/);
    const ledger = { summaryKey: 'c'.repeat(64), ledger: { entries: [{ kind: 'rule', text: 'Never.', seq: null }] } };
    assert.deepEqual(parseCompactorState({ ...s, ledger }).ledger, ledger);
    assert.throws(() => parseCompactorState({ ...s, ledger: { ...ledger, summaryKey: 'nope' } }), /ledger\.summaryKey/);
  });
});
