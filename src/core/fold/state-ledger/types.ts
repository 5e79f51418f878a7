/**
 * The state ledger's model: what a fold must carry forward for the agent to keep working — the rules it was given,
 * the limits, decisions, facts with values, the task's state, the user's preferences, open questions and errors not
 * yet resolved — one entry per statement, each with the archive sequence number of the message it came from.
 */

/** The kinds of ledger entry, in the order the ledger prints them (most binding first). */
export type EntryKind =
  'rule' | 'constraint' | 'decision' | 'fact' | 'goal' | 'preference' | 'question' | 'error' | 'observation' | 'said';

/** Print order of the kinds. */
export const KIND_ORDER: readonly EntryKind[] = [
  'rule',
  'constraint',
  'decision',
  'preference',
  'fact',
  'goal',
  'question',
  'error',
  'observation',
  'said',
];

/** Section headings, one per kind (the parser maps them back). */
export const KIND_HEADING: Record<EntryKind, string> = {
  rule: 'Rules:',
  constraint: 'Constraints and limits:',
  decision: 'Decisions:',
  preference: 'User preferences:',
  fact: 'Facts:',
  goal: 'Goals and task state:',
  question: 'Open questions:',
  error: 'Errors not yet resolved:',
  observation: 'Seen in tool results and found by the assistant, verbatim:',
  said: 'Other user statements, verbatim:',
};

/** Task state of a goal entry. */
export type GoalStatus = 'done' | 'in progress' | 'next';

/** One ledger entry. */
export interface LedgerEntry {
  kind: EntryKind;
  /** The statement, verbatim (or shortened, ending in a pointer to the archive). */
  text: string;
  /** Archive sequence number of the message it came from (`null` when unknown). */
  seq: number | null;
  /** Goals only. */
  status?: GoalStatus;
  /** The value it replaced, kept where the change matters (decisions). */
  was?: string;
  /**
   * The entry was too long for the room a fold had: `text` is its pointer (subject words and values, in order, no
   * cut clause) and the whole statement is archived message `seq`. Printed as `[#SEQ, pointer]`.
   */
  pointer?: true;
}

/** A ledger: its entries in print order, and the conversation's task (the first user request). */
export interface StateLedger {
  task?: { text: string; seq: number | null };
  entries: LedgerEntry[];
}
