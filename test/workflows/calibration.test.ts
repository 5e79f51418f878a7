// Reported usage calibrates the conversation's estimate in both agent loops, and across continue-as-new.
import { strict as assert } from 'node:assert';
import { uniqueConversationId, withConversationWorker } from '../support/conversation';

const user = (text: string) => ({ role: 'user', content: text });
const assistant = (text: string) => ({ role: 'assistant', content: text });

describe('calibration in the conversation workflow', function () {
  this.timeout(120_000);

  it('applies usage for the context prepare returned after the reply was recorded (the README loop)', async () => {
    await withConversationWorker(async ({ open }) => {
      const conv = open(uniqueConversationId('cal-record'));
      const first = await conv.prepare([user('hello there')]);
      await conv.record(assistant('hi!'));
      const reported = 2 * first.tokens;
      const second = await conv.prepare([user('and then?')], { usage: { inputTokens: reported } });
      const state = await conv.state();
      assert.ok(state.calibration, 'the report was applied');
      assert.equal(state.calibration.samples, 1);
      const anchor = state.calibration.anchor;
      assert.ok(anchor);
      assert.equal(anchor.estimated, first.tokens, 'anchored at the context that was sent');
      // Anchored: reported total (bounded to ×1.2 of the neutral ratio) + the growth since, scaled by the ratio.
      const growth = second.tokens - anchor.reported;
      assert.ok(growth > 0 && second.tokens > first.tokens * 1.2, `estimate ${second.tokens}`);
    });
  });

  it('applies usage in the loop without record (the reply comes with the next prepare)', async () => {
    await withConversationWorker(async ({ open }) => {
      const conv = open(uniqueConversationId('cal-no-record'));
      const first = await conv.prepare([user('hello there')]);
      await conv.prepare([assistant('hi!'), user('and then?')], { usage: { inputTokens: first.tokens + 1 } });
      const state = await conv.state();
      assert.equal(state.calibration?.samples, 1);
      assert.equal(state.calibration?.anchor?.estimated, first.tokens);
      assert.equal(state.calibration?.anchor?.reported, first.tokens + 1);
    });
  });

  it('keeps the chain across continue-as-new: usage for the last run’s context still applies', async () => {
    await withConversationWorker(async ({ open }) => {
      const conv = open(uniqueConversationId('cal-can'), {}, { maxUpdatesPerRun: 10 });
      for (let i = 0; i < 4; i++) {
        await conv.record(user(`earlier question ${i}`));
        await conv.record(assistant(`earlier answer ${i}`));
      }
      const first = await conv.prepare([user('hello there')]);
      await conv.record(assistant('hi!')); // the tenth update of the run: the workflow hands over
      await conv.prepare([user('and then?')], { usage: { inputTokens: first.tokens + 1 } });
      const state = await conv.state();
      assert.ok(state.continuedAsNew >= 1, 'the report arrived in a later run');
      assert.equal(state.calibration?.samples, 1);
      assert.equal(state.calibration?.anchor?.estimated, first.tokens);
    });
  });

  it('ignores usage for a context that a fold, rewind or clear has since replaced', async () => {
    await withConversationWorker(async ({ open }) => {
      const conv = open(uniqueConversationId('cal-rewind'));
      const first = await conv.prepare([user('hello there')]);
      await conv.record(assistant('hi!'));
      await conv.rewind();
      await conv.prepare([user('again')], { usage: { inputTokens: first.tokens * 2 } });
      assert.equal((await conv.state()).calibration, null);
    });
  });
});
