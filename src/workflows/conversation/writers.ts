/**
 * Exactly-once appends for any number of writers: each client instance is a writer with its own id and numbers its
 * appends 0, 1, 2, … (a retry of a call reuses its number). The conversation remembers each writer's last applied
 * number: a number at or below it is a retry (applied already, skipped), the next one is applied, and one further
 * ahead means an earlier append has not arrived yet, so it is refused with `OutOfOrder` (the client retries it).
 */

/** Writers remembered (least recently used forgotten first); a forgotten writer must start again from 0. */
export const WRITERS_KEPT = 1000;

/** A writer's number skipped ahead of the next expected one. */
export class OutOfOrderAppend extends Error {
  override readonly name = 'OutOfOrderAppend';
}

/** An update's `expectedVersion` is not the current version. */
export class VersionMismatch extends Error {
  override readonly name = 'VersionMismatch';
}

/**
 * Each writer's id and last applied sequence number, least recently used first, with the hash of that append's
 * messages (`appendHash`; absent in tables written before it) so a reuse of the number with other messages is told
 * from a retry.
 */
export type WriterTable = [writer: string, lastSeq: number, hash?: string][];

/**
 * @returns true when `seq` was applied already (a retry), false when it is the writer's next number.
 * @throws OutOfOrderAppend when `seq` skips ahead.
 */
export function isRetry(table: WriterTable, writer: string, seq: number): boolean {
  const entry = table.find(([w]) => w === writer);
  const last = entry ? entry[1] : -1;
  if (seq <= last) return true;
  if (seq === last + 1) return false;
  throw new OutOfOrderAppend(
    `writer '${writer}': append ${seq} arrived before append ${last + 1}; it was not applied (retry it after the earlier one)` +
      (entry ? '' : ` (a writer starts at 0; one idle for long is forgotten after ${WRITERS_KEPT} newer writers)`)
  );
}

/** Records `seq` as the writer's last applied number (and the writer as the most recently used), with its `hash`. */
export function noteApplied(table: WriterTable, writer: string, seq: number, hash?: string): void {
  const at = table.findIndex(([w]) => w === writer);
  const entry = at >= 0 ? table[at] : undefined;
  const last = entry ? entry[1] : -1;
  if (at >= 0) table.splice(at, 1);
  const kept = seq > last ? hash : entry?.[2];
  table.push(kept === undefined ? [writer, Math.max(last, seq)] : [writer, Math.max(last, seq), kept]);
  if (table.length > WRITERS_KEPT) table.splice(0, table.length - WRITERS_KEPT);
}
