/** One message of the conversation's live context (its own file so pinned messages and state can both name it). */
import type { EntryKey } from '../../contract/patch';

/** One message of the live context. */
export interface LiveEntry extends EntryKey {
  raw: unknown;
  tokens: number;
  /** Archive sequence number of the original message; `null` for summaries the workflow wrote. */
  seq: number | null;
  /** The caller pinned it (`pin: true`): every fold keeps it verbatim, `clear` keeps it (see `pinned-messages.ts`). */
  pinned?: boolean;
  /**
   * Set when `raw` is a reference stub (`core/fold/reference-stub.ts`) standing for archive message `seq`: `bytes` is
   * the JSON size of what it stands for, `tokens` still counts that. The caller's mirror holds the message itself
   * (the entry kept its uid and rev).
   */
  ref?: { bytes: number };
}
