// Issue 24: the offline CLI reads Gemini and AI SDK transcripts (detected, or named with --format on plan/count)
// and its fold output keeps each provider's rules.
import { strict as assert } from 'node:assert';
import { runCount } from '../../src/cli/count';
import { runFold } from '../../src/cli/fold';
import { runPlan } from '../../src/cli/plan';
import { createTokenCounter } from '../../src/tokens';
import { capture, fileWriter } from '../support/cli';
import { geminiSession } from '../support/gemini-transcript';
import { aiSdkSession } from '../support/ai-sdk-transcript';
import { geminiRuleViolations } from '../support/gemini-rules';
import { aiSdkRuleViolations } from '../support/ai-sdk-rules';

const file = fileWriter('dc-formats-');

const CASES = [
  { format: 'gemini' as const, session: geminiSession, rules: geminiRuleViolations, model: 'gemini-2.5-pro' },
  { format: 'ai-sdk' as const, session: aiSdkSession, rules: aiSdkRuleViolations, model: 'gpt-4o' },
];

for (const { format, session, rules, model } of CASES) {
  describe(`cli plan / count / fold (${format})`, () => {
    const messages = session();
    const path = file(`${format}.json`, JSON.stringify(messages));

    it('count prices the transcript in its format, detected or named', async () => {
      const counter = createTokenCounter({ model });
      const expected = counter.countMessages(messages, format);
      for (const args of [[path], ['--format', format, path]]) {
        const io = capture();
        assert.equal(await runCount(['--model', model, ...args], io), 0);
        assert.match(
          io.out.join('\n'),
          new RegExp(`\\b${expected.reduce((a, b) => a + b, 0) + counter.replyPriming}\\b`)
        );
      }
    });

    it('plan folds without splitting a pair or folding the pending call, detected or named', async () => {
      for (const args of [[path], ['--format', format, path]]) {
        const io = capture();
        assert.equal(await runPlan(['--model', model, '--budget', '300', '--policy', 'items', ...args], io), 0);
        const p = JSON.parse(io.out[0]!) as { fold: boolean; keep: number[] };
        assert.equal(p.fold, true);
        assert.ok(p.keep.includes(messages.length - 1), 'the pending call is kept');
        assert.equal(p.keep[0], 0, 'the system element is kept first');
      }
    });

    it('fold writes a context that keeps the provider rules', async () => {
      const io = capture();
      assert.equal(await runFold(['--model', model, '--budget', '300', '--policy', 'items', path], io), 0);
      const out = JSON.parse(io.out[0]!) as { messages: unknown[]; fold: unknown };
      assert.ok(out.fold, 'it folded');
      assert.ok(out.messages.length < messages.length);
      assert.deepEqual(rules(messages, out.messages), []);
    });

    it('refuses a malformed element naming it', async () => {
      const bad = [...messages, { role: 'user', parts: 'oops', content: 7 }];
      await assert.rejects(
        runPlan(
          ['--model', model, '--budget', '300', '--format', format, file(`${format}-bad.json`, JSON.stringify(bad))],
          capture()
        ),
        new RegExp(`message ${messages.length}: `)
      );
    });
  });
}
