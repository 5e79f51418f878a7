/** A fold record for tests that store, carry or parse one. */
import type { FoldRecord } from '../../src/core/fold/fold-record';

/** @returns a successful fold record numbered `number` (a model summary, no usage reported), with `overrides`. */
export function foldRecord(number: number, overrides: Partial<FoldRecord> = {}): FoldRecord {
  return {
    number,
    ok: true,
    split: 10,
    firstKept: { index: 10, hash: 'ab'.repeat(32) },
    output: 'text',
    droppedCount: 9,
    tokensBefore: 9000,
    tokensAfter: 3000,
    usage: null,
    responseId: null,
    outputTypes: [],
    attempts: 1,
    pinned: [],
    prefixHash: 'cd'.repeat(32),
    error: null,
    identifiers: { kept: 3, total: 3 },
    archiveRange: { firstSeq: 1, lastSeq: 9 },
    startedAt: 1_700_000_000_000,
    finishedAt: 1_700_000_001_000,
    ...overrides,
  };
}
