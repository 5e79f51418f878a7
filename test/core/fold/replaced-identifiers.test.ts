import assert from 'node:assert/strict';
import type { Identifier } from '../../../src/core/fold/identifiers';
import { withoutReplaced } from '../../../src/core/fold/replaced-identifiers';
import type { LedgerEntry } from '../../../src/core/fold/state-ledger';

const id = (value: string): Identifier => ({ value, kind: 'ticket', sources: ['user'], count: 1, lastIndex: 0 });
const entry = (text: string): LedgerEntry => ({ kind: 'fact', text, seq: 1 });

describe('core/fold/replaced-identifiers', () => {
  it('drops what only a replaced statement states, keeps what a current entry, the task or a tool result states', () => {
    const ids = [id('INC-1'), id('INC-2'), id('src/a.ts'), id('v7')];
    const replaced = [entry('The incident is INC-1, see src/a.ts'), entry('Schema v7 is current.')];
    const current = {
      task: { text: 'Fix src/a.ts', seq: 0 },
      entries: [entry('Track everything under INC-2 now.')],
    };
    assert.deepEqual(
      withoutReplaced(ids, replaced, current).map((i) => i.value),
      ['INC-2', 'src/a.ts']
    );
    assert.deepEqual(withoutReplaced(ids, [], current), ids);
    // What a tool showed still names what the agent worked on.
    const shown: LedgerEntry = { kind: 'observation', text: 'Read(src/a.ts) → incident INC-1, schema v7', seq: 1 };
    assert.deepEqual(withoutReplaced(ids, [shown], { entries: [] }), ids);
  });
});
