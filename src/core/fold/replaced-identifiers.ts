/**
 * Identifiers of replaced statements: "the incident ticket is INC-20931", replaced by "track everything under
 * INC-20877 now", leaves INC-20931 in the folded messages, and an identifier list that appended it would restate the
 * value the ledger dropped as stale. The original stays in the archive, reachable through `recall`.
 */
import type { Identifier } from './identifiers';
import type { LedgerEntry, StateLedger } from './state-ledger';

/**
 * `identifiers` without those a replaced statement states and no current entry (nor the task) does.
 *
 * @returns the identifiers still current, in their order
 */
export function withoutReplaced(
  identifiers: readonly Identifier[],
  replaced: readonly LedgerEntry[],
  current: StateLedger
): Identifier[] {
  if (replaced.length === 0) return [...identifiers];
  // What a tool showed is replaced by a later result about its subject, but the paths and names it holds are still
  // what the agent worked on: only a statement's identifiers go stale with it.
  const stale = replaced.filter((e) => e.kind !== 'observation' && !e.text.includes(' → ')).map((e) => e.text);
  const live = [...current.entries.map((e) => e.text), current.task?.text ?? ''];
  return identifiers.filter((id) => !stale.some((t) => t.includes(id.value)) || live.some((t) => t.includes(id.value)));
}
