// Issue 9, item 2: one tool call whose result never arrives must not stop every later fold. Once a later user turn
// (or a later assistant turn) arrives, the call is abandoned: a synthetic "not run" result is stored for it (live
// context and archive) and it folds like any pair. A call still pending at the end is never folded.
import { strict as assert } from 'node:assert';
import type { ConversationClient } from '../../../src/client/conversation-client';
import { conversationWorkflowId } from '../../../src/contract/definitions';
import { uniqueConversationId, withConversationWorker } from '../../support/conversation';
import fc from 'fast-check';
import { extendTranscript, normalize } from '../../../src/core/messages/normalize';
import type { Transcript } from '../../../src/core/messages/types';
import { withAbandonedAnswers } from '../../../src/workflows/conversation/abandoned-calls';
import type { StagedAppend } from '../../../src/workflows/conversation/conversation-state';
import { appendsOf, cutPoints, pairingMessages, pairingSteps } from '../../support/paired-transcripts';

type Format = 'chat' | 'responses';

const filler = (label: string, words: number): string =>
  Array.from({ length: words }, (_, k) => `${label}-${k % 17} detail${(k * 7) % 13}`).join(' ');

function user(format: Format, text: string): unknown {
  return format === 'chat'
    ? { role: 'user', content: text }
    : { type: 'message', role: 'user', content: [{ type: 'input_text', text }] };
}
function answer(format: Format, text: string): unknown {
  return format === 'chat'
    ? { role: 'assistant', content: text }
    : { type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] };
}
function call(format: Format, id: string): unknown {
  const args = JSON.stringify({ path: `src/file-${id}.ts` });
  return format === 'chat'
    ? {
        role: 'assistant',
        content: null,
        tool_calls: [{ id, type: 'function', function: { name: 'read', arguments: args } }],
      }
    : { type: 'function_call', call_id: id, name: 'read', arguments: args };
}
function result(format: Format, id: string, text: string): unknown {
  return format === 'chat'
    ? { role: 'tool', tool_call_id: id, content: text }
    : { type: 'function_call_output', call_id: id, output: text };
}

/** The text of a stored "not run" result for call `id`, or undefined when `raw` is not one. */
function notRunFor(raw: unknown, id: string): string | undefined {
  const r = raw as { tool_call_id?: string; call_id?: string; content?: unknown; output?: unknown };
  const text = r.tool_call_id === id ? r.content : r.call_id === id && r.output !== undefined ? r.output : undefined;
  return typeof text === 'string' && text.startsWith('[not run]') ? text : undefined;
}

/**
 * Drives `turns` agent turns (user → tool call → result → answer) through prepare/record; the result of turn
 * `lostAt` never arrives (the agent was interrupted after the call).
 * @returns the highest token estimate any prepare returned.
 */
async function drive(conv: ConversationClient, format: Format, turns: number, lostAt: number): Promise<number> {
  let peak = 0;
  let pending: unknown[] = [];
  for (let t = 0; t < turns; t++) {
    pending.push(user(format, `question ${t}: ${filler('q', 12)}`));
    peak = Math.max(peak, (await conv.prepare(pending)).tokens);
    pending = [];
    await conv.record([call(format, `call_${t}`)]);
    if (t === lostAt) continue; // interrupted: no result, no answer; the next user turn moves on
    peak = Math.max(
      peak,
      (await conv.prepare([result(format, `call_${t}`, `output ${t}: ${filler('out', 25)}`)])).tokens
    );
    await conv.record([answer(format, `answer ${t}: ${filler('a', 10)}`)]);
  }
  return peak;
}

for (const format of ['chat', 'responses'] as const) {
  describe(`abandoned tool calls (${format})`, function () {
    this.timeout(240_000);

    it('40 turns at budget 3000 with one lost result: folds happen and the context stays under budget', async () => {
      await withConversationWorker(async ({ open, archive }) => {
        const id = uniqueConversationId(`abandoned-${format}`);
        const conv = open(id, { budget: 3000, foldMode: 'blocking' });
        const peak = await drive(conv, format, 40, 3);
        const state = await conv.state();
        assert.ok(state.folds >= 2, `folds happened after the lost result: ${state.folds}`);
        assert.ok(peak <= 3000, `the context stayed under the budget: peak ${peak}`);
        const archived = (await archive.readAll(conversationWorkflowId(id))).map((a) => a.message);
        const synthetic = archived.filter((m) => notRunFor(m, 'call_3'));
        assert.equal(synthetic.length, 1, 'the archive keeps the synthetic result, once');
        const at = archived.indexOf(synthetic[0]);
        assert.equal(notRunFor(archived[at], 'call_3')?.includes('read'), true, 'it names the tool');
        assert.deepEqual(
          archived[at + 1],
          user(format, `question 4: ${filler('q', 12)}`),
          'right before the next turn'
        );
        assert.equal(archived.length, 40 * 4 - 2 + 1, 'every message archived once, plus the synthetic result');
        await conv.close();
      });
    });

    it('stores the result in the live context when the next user turn arrives, not before', async () => {
      await withConversationWorker(async ({ open }) => {
        const conv = open(uniqueConversationId(`abandoned-live-${format}`));
        await conv.prepare([user(format, 'first question')]);
        await conv.record([call(format, 'c1')]);
        // Still the latest open work: pending, nothing synthesized, never folded.
        let context = await conv.context();
        assert.equal(context.messages.filter((m) => notRunFor(m, 'c1')).length, 0);
        const next = await conv.prepare([user(format, 'never mind, something else')]);
        context = await conv.context();
        assert.equal(context.messages.length, 4);
        assert.ok(notRunFor(context.messages[2], 'c1'), 'the "not run" result sits between the call and the new turn');
        assert.deepEqual(next.messages, context.messages, 'the client mirror received it through the patch');
        await conv.close();
      });
    });

    it('a later assistant turn abandons the call as well; a call pending at the end stays pending', async () => {
      await withConversationWorker(async ({ open }) => {
        const conv = open(uniqueConversationId(`abandoned-asst-${format}`));
        await conv.prepare([user(format, 'look at two files')]);
        await conv.record([call(format, 'a1')]);
        await conv.prepare([result(format, 'a1', 'content of the first file')]);
        await conv.record([call(format, 'a2')]); // the model was asked again after a result: a new assistant turn
        await conv.prepare([result(format, 'a2', 'content of the second file')]);
        await conv.record([call(format, 'b1')]);
        await conv.record([answer(format, 'I will stop here')]);
        await conv.record([call(format, 'c9')]);
        const { messages } = await conv.context();
        const b1 = messages.findIndex((m) => notRunFor(m, 'b1'));
        assert.ok(b1 > 0, 'the call followed by another assistant turn got its result');
        assert.ok(format === 'chat' || messages[b1 + 1] !== undefined);
        assert.equal(messages.filter((m) => notRunFor(m, 'a1') || notRunFor(m, 'a2')).length, 0, 'answered calls');
        assert.equal(messages.filter((m) => notRunFor(m, 'c9')).length, 0, 'the last call is still pending');
        await conv.close();
      });
    });
  });
}

describe('abandoned calls of an append, read from the append alone', () => {
  for (const format of ['chat', 'anthropic'] as const) {
    it(`${format}: with the stored transcript (extended append by append) places what reading everything places`, () => {
      fc.assert(
        fc.property(pairingSteps(), cutPoints(), (steps, cuts) => {
          const appends = appendsOf(pairingMessages(steps, format), cuts);
          let live: Transcript;
          try {
            live = normalize(appends[0]!, format);
          } catch {
            return; // a stored context always reads
          }
          for (const more of appends.slice(1)) {
            const raws = live.items.map((i) => i.raw);
            const entries = raws.map((raw) => ({ raw }));
            const staged: StagedAppend = {
              messages: more,
              sentIndex: more.map((_, i) => i),
              firstSeq: raws.length,
              format,
              mirror: { live: [], length: 0, sent: [] },
              baseVersion: 0,
            };
            let whole;
            try {
              whole = withAbandonedAnswers(entries, staged);
            } catch {
              return; // a refused append is refused at staging, before this
            }
            assert.deepEqual(withAbandonedAnswers(entries, staged, live.items), whole);
            try {
              live = extendTranscript(live, more);
            } catch {
              return;
            }
          }
        }),
        { numRuns: 500 }
      );
    });
  }
});
