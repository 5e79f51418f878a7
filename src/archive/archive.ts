import type { FoldRecord } from '../core/fold/fold-record';

/** One archived message: its sequence number in the conversation (0, 1, 2, … in append order) and the original. */
export interface ArchivedMessage {
  seq: number;
  message: unknown;
}

/**
 * The conversation archive: every message ever appended, kept in full and in order, before it can leave the live
 * context (folded, clipped, evicted, rewound or cleared). Writes are idempotent by sequence number, because the
 * activities that write them are retried.
 */
export interface ConversationArchive {
  /** Stores `messages` as seq `startSeq`, `startSeq+1`, …; sequence numbers already stored are skipped. */
  append(conversationId: string, startSeq: number, messages: unknown[]): Promise<void>;
  /** The archived messages with these sequence numbers, in the order asked. @throws ArchiveError if one is missing. */
  read(conversationId: string, seqs: number[]): Promise<ArchivedMessage[]>;
  /** Every archived message in order. */
  readAll(conversationId: string): Promise<ArchivedMessage[]>;
  /** Records a fold (which archive range its summary replaced); idempotent by `record.number`. */
  recordFold(conversationId: string, record: FoldRecord): Promise<void>;
  /** Every recorded fold in order. */
  folds(conversationId: string): Promise<FoldRecord[]>;
}

/** The archive cannot serve a request; the message names the conversation and what is missing. */
export class ArchiveError extends Error {
  override readonly name = 'ArchiveError';
}
