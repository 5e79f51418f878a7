import { ArchiveError, type ArchivedMessage } from './archive';

/** @throws ArchiveError naming the first sequence number asked for that the archive does not hold. */
export function missingSeqs(key: string, wanted: readonly number[], found: readonly { seq: number }[]): void {
  const have = new Set(found.map((r) => r.seq));
  const missing = wanted.find((seq) => !have.has(seq));
  if (missing !== undefined) throw new ArchiveError(`archive of ${key} has no message with seq ${missing}`);
}

/** @returns the messages in the order their numbers were asked for (repeats included). */
export function orderAsAsked(wanted: readonly number[], messages: readonly ArchivedMessage[]): ArchivedMessage[] {
  const bySeq = new Map(messages.map((m) => [m.seq, m]));
  return wanted.map((seq) => bySeq.get(seq)!);
}
