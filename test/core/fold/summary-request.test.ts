import assert from 'node:assert/strict';
import { SUMMARY_INSTRUCTIONS, buildChatRequest, buildResponsesRequest } from '../../../src/core/fold/summary-request';
import { SUMMARY_MARKER } from '../../../src/core/messages/summary-marker';
import { normalize } from '../../../src/core/messages/normalize';

describe('core/fold/summary-request', () => {
  const chat = normalize(
    [
      { role: 'user', content: `${SUMMARY_MARKER}]\nEARLIER_SUMMARY_TEXT` },
      { role: 'user', content: 'Now deploy to staging' },
      { role: 'assistant', content: 'Deployed.' },
    ],
    'chat'
  );

  it('leads with the agent system prompt and ends with our instructions (rendered)', () => {
    const msgs = buildChatRequest({ items: chat.items, format: 'chat', systemPrompt: 'AGENT_SYSTEM' });
    assert.deepEqual(msgs[0], { role: 'system', content: 'AGENT_SYSTEM' });
    assert.equal(msgs.length, 2);
    const body = String(msgs[1]?.content);
    assert.ok(body.endsWith(SUMMARY_INSTRUCTIONS));
    assert.ok(body.includes('EARLIER_SUMMARY_TEXT'), 'the previous summary is part of what is summarised');
    assert.equal(body.split('EARLIER_SUMMARY_TEXT').length, 2, 'once, not stacked');
    assert.ok(body.includes('User: Now deploy to staging'));
  });

  it('sends the caller elements verbatim when asked and the format matches', () => {
    const msgs = buildChatRequest({ items: chat.items, format: 'chat', style: 'verbatim' });
    assert.equal(msgs.length, 4);
    assert.equal(msgs[1], chat.items[1]?.raw);
    assert.deepEqual(msgs[3], { role: 'user', content: SUMMARY_INSTRUCTIONS });
  });

  it('leaves reasoning and instructions out of a Responses request', () => {
    const t = normalize(
      [
        { role: 'developer', content: 'DEV' },
        { role: 'user', content: 'question' },
        { type: 'reasoning', id: 'rs_1', summary: [] },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'answer' }] },
      ],
      'responses'
    );
    const req = buildResponsesRequest({ items: t.items, format: 'responses', style: 'verbatim', systemPrompt: 'SYS' });
    assert.equal(req.instructions, 'SYS');
    assert.ok(!req.input.some((i) => i.type === 'reasoning'));
    assert.ok(!req.input.some((i) => i.role === 'developer'));
    assert.equal(req.input.length, 3);
  });

  it("asks for the state ledger's sections, then the narrative", () => {
    const parts = [
      'Task',
      'Rules and constraints',
      'Decisions',
      'Facts',
      'Current state and next steps',
      'User preferences',
      'Open questions and errors not yet resolved',
      'Details to remember',
      'Discussed and accomplished',
    ];
    for (const part of parts) {
      assert.ok(SUMMARY_INSTRUCTIONS.includes(part), part);
    }
    assert.match(SUMMARY_INSTRUCTIONS, /exactly/);
  });
});
