import { strict as assert } from 'node:assert';
import {
  isRetry,
  noteApplied,
  OutOfOrderAppend,
  WRITERS_KEPT,
  type WriterTable,
} from '../../../src/workflows/conversation/writers';

describe('per-writer sequence numbers', () => {
  it('applies 0, 1, 2 in order, calls a repeated number a retry, and refuses one that skips ahead', () => {
    const table: WriterTable = [];
    assert.equal(isRetry(table, 'a', 0), false);
    noteApplied(table, 'a', 0);
    assert.equal(isRetry(table, 'a', 0), true, 'a retry of 0');
    assert.equal(isRetry(table, 'a', 1), false);
    assert.throws(
      () => isRetry(table, 'a', 3),
      (e: unknown) => e instanceof OutOfOrderAppend && /append 3 arrived before append 1/.test(e.message)
    );
    // Another writer has its own sequence.
    assert.equal(isRetry(table, 'b', 0), false);
    assert.throws(() => isRetry(table, 'b', 1), OutOfOrderAppend);
  });

  it('keeps the most recently used writers, bounded', () => {
    const table: WriterTable = [];
    for (let i = 0; i <= WRITERS_KEPT; i++) noteApplied(table, `w${i}`, 0);
    assert.equal(table.length, WRITERS_KEPT);
    assert.equal(table[0]![0], 'w1', 'the least recently used writer was forgotten');
    noteApplied(table, 'w1', 1);
    assert.deepEqual(table.at(-1), ['w1', 1]);
  });
});
