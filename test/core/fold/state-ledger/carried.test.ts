import assert from 'node:assert/strict';
import {
  boundLedger,
  buildFoldLedger,
  carriedLedgerProblem,
  summaryKey,
  renderLedger,
} from '../../../../src/core/fold/state-ledger';
import type { CarriedLedger, LedgerEntry, StateLedger } from '../../../../src/core/fold/state-ledger';
import { CARRIED_LEDGER_MAX_BYTES, ledgerBytes } from '../../../../src/core/fold/state-ledger/carried-check';
import { normalize } from '../../../../src/core/messages/normalize';
import { markedSummaryText } from '../../../../src/core/messages/text';
import { writeDigest } from '../../../../src/summarizers/extractive/digest';
import { testCounter } from '../../../support/test-counter';

const items = (messages: unknown[]) => normalize(messages, 'chat').items;
const count = (s: string): number => testCounter.countText(s);
const summaryMessage = (text: string) => ({
  role: 'user',
  content: markedSummaryText(text, { droppedCount: 3, summarizedIds: [] }),
});

const RULE =
  'Never deploy the payments service on a Friday, because the on-call rota is thin and a rollback then waits until Monday morning.';

describe('core/fold/state-ledger/carried', () => {
  it('keys a summary by its words: the marker line and whitespace do not change the key, a word does', () => {
    const body = 'Extractive summary.\n\nRules:\n- [#3] Never push to main.';
    assert.equal(summaryKey(markedSummaryText(body, { droppedCount: 4, summarizedIds: [] })), summaryKey(body));
    assert.equal(summaryKey(body.replace(/\n/g, '\n\n  ')), summaryKey(body));
    assert.notEqual(summaryKey(body.replace('main', 'master')), summaryKey(body));
    assert.match(summaryKey(body), /^[0-9a-f]{64}$/);
  });

  it('merges the carried ledger whole in place of the one printed in its summary, and ignores it for another summary', () => {
    const whole: LedgerEntry = { kind: 'rule', text: RULE, seq: 4 };
    const printed: StateLedger = {
      entries: [{ ...whole, text: 'Never deploy the payments service on a Friday', pointer: true }],
    };
    const text = renderLedger(printed);
    const state: CarriedLedger = { summaryKey: summaryKey(text), ledger: { entries: [whole] } };
    const head = items([summaryMessage(text), { role: 'user', content: 'Carry on with the migration.' }]);

    const fromState = buildFoldLedger(head, [null, 9], state).ledger.entries;
    assert.deepEqual(fromState[0], whole, 'the whole rule, not its pointer');
    const fromText = buildFoldLedger(head, [null, 9]).ledger.entries;
    assert.equal(fromText[0]?.pointer, true, 'without state the printed pointer is all there is');
    const other = { ...state, summaryKey: summaryKey(`${text} (edited)`) };
    assert.deepEqual(
      buildFoldLedger(head, [null, 9], other).ledger.entries,
      fromText,
      'another summary: read its text'
    );
  });

  it('a rule a tight fold printed as a pointer is whole again at the next fold with room, only when carried as state', () => {
    const first = items([
      { role: 'user', content: 'Help me ship the release.' },
      { role: 'user', content: RULE },
      { role: 'assistant', content: 'Understood.' },
    ]);
    const tight = writeDigest(first, { maxTokens: 60, seqs: [1, 2, 3], count });
    assert.ok(!tight.text.includes(RULE), 'the tight fold printed a pointer');
    assert.ok(
      tight.ledger.entries.some((e) => e.text === RULE && !e.pointer),
      'its merged ledger has the rule whole'
    );
    const state: CarriedLedger = { summaryKey: summaryKey(tight.text), ledger: boundLedger(tight.ledger) };
    const next = items([summaryMessage(tight.text), { role: 'user', content: 'Now tag the build as v2.4.1.' }]);
    const roomy = { maxTokens: 2000, seqs: [null, 7], count };
    assert.ok(writeDigest(next, { ...roomy, state }).text.includes(RULE), 'carried: whole again');
    assert.ok(!writeDigest(next, roomy).text.includes(RULE), 'read back from the text: still a pointer');
  });

  it('bounds a carried ledger in bytes: the least binding entries go first, rules stay', () => {
    const said = (k: number): LedgerEntry => ({ kind: 'said', text: `an aside number ${k} `.repeat(30), seq: k });
    const ledger: StateLedger = {
      task: { text: 'Do it. '.repeat(2000), seq: 1 },
      entries: [{ kind: 'rule', text: RULE, seq: 2 }, ...Array.from({ length: 300 }, (_, k) => said(k + 3))],
    };
    const bounded = boundLedger(ledger);
    assert.ok(ledgerBytes(bounded) <= CARRIED_LEDGER_MAX_BYTES, `${ledgerBytes(bounded)} bytes`);
    assert.equal(bounded.entries[0]?.text, RULE);
    assert.ok(bounded.entries.length < ledger.entries.length);
    assert.ok(bounded.task!.text.length <= 4000 && bounded.task!.text.endsWith('Do it.'));
    assert.equal(carriedLedgerProblem({ summaryKey: 'a'.repeat(64), ledger: bounded }, 'carried.ledger'), undefined);
    const small: StateLedger = { entries: [{ kind: 'rule', text: RULE, seq: 2 }] };
    assert.deepEqual(boundLedger(small), small, 'a ledger within the bounds is unchanged');
  });

  it('names the field of a carried ledger that is wrong', () => {
    const ok = { summaryKey: 'b'.repeat(64), ledger: { entries: [{ kind: 'rule', text: 'x', seq: 1 }] } };
    const problem = (v: unknown): string | undefined => carriedLedgerProblem(v, 'carried.ledger');
    assert.equal(problem(ok), undefined);
    assert.match(problem(null)!, /carried\.ledger must be/);
    assert.match(problem({ ...ok, summaryKey: 'xyz' })!, /summaryKey/);
    assert.match(problem({ ...ok, ledger: { entries: 3 } })!, /carried\.ledger\.ledger must be/);
    const entry = (e: Record<string, unknown>): unknown => ({ ...ok, ledger: { entries: [e] } });
    assert.match(problem(entry({ kind: 'gossip', text: 'x', seq: 1 }))!, /entries\[0\]\.kind/);
    assert.match(problem(entry({ kind: 'rule', text: 5, seq: 1 }))!, /entries\[0\]\.text/);
    assert.match(problem(entry({ kind: 'rule', text: 'x', seq: -1 }))!, /entries\[0\]\.seq/);
    assert.match(problem(entry({ kind: 'goal', text: 'x', seq: 1, status: 'later' }))!, /entries\[0\]\.status/);
    assert.match(problem(entry({ kind: 'rule', text: 'x', seq: 1, pointer: false }))!, /entries\[0\]\.pointer/);
    assert.match(problem(entry({ kind: 'rule', text: 'x', seq: 1, secret: 'k' }))!, /entries\[0\]\.secret/);
    assert.match(problem({ ...ok, ledger: { task: { text: 'x', seq: 'one' }, entries: [] } })!, /task\.seq/);
    const huge = Array.from({ length: 20 }, () => ({ kind: 'said', text: 'é'.repeat(3000), seq: 1 }));
    assert.match(problem({ ...ok, ledger: { entries: huge } })!, /larger than/);
  });
});
