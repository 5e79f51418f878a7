/**
 * The driver-independent part of encryption at rest: what a driver writes for a value (sealed with the encrypting key
 * when a cipher is configured, plain otherwise) and what it returns for a row it read (a row with a key id is opened
 * with that key, a row without one is plain: written before encryption was turned on). Both drivers run it, so they
 * store and refuse the same way.
 */
import { parseFoldRecord, type FoldRecord } from '../core/fold/fold-record';
import { canonicalJson } from '../core/hash';
import type {
  ArchivedMessage,
  EntryKind,
  FoldSummaryText,
  StoredSummary,
  SupersededRevision,
  WriteOutcome,
} from './archive';
import { ArchiveDecryptError, describeRow, type ArchiveCipher, type RowIdentity } from './cipher';
import { contentHash, parseBody, planWrite, type PreparedEntry, type StoredHead } from './entries';
import { searchRows, type SearchRow } from './search-index';

/** A message or fold row as stored (or to store): `hash` and `body` are sealed when `keyId` is set. */
export interface SealedEntry {
  seq: number;
  revision: number;
  hash: string;
  body: string;
  keyId: string | null;
}

/** A fold summary as stored. */
export interface SealedSummary {
  digest: string;
  kind: FoldSummaryText['kind'];
  body: string;
  keyId: string | null;
}

/** What a write stores: the rows of `planWrite`'s decision, sealed, and the search rows of the new messages. */
export interface SealedPlan {
  inserts: SealedEntry[];
  supersedes: SealedEntry[];
  /**
   * Late fold records: `kept` goes to the superseded revisions; the current row stays, as `head` (the same content
   * at the revision after `kept`'s, sealed again for that revision when it is encrypted).
   */
  stale: { kept: SealedEntry; head: SealedEntry }[];
  search: SearchRow[];
  outcome: WriteOutcome;
}

/** @returns the identity a message or fold row's body is bound to. */
export function entryIdentity(key: string, kind: EntryKind, seq: number, revision: number): RowIdentity {
  return [key, kind, seq, revision];
}

/** Seals what a driver writes and opens what it reads, with `cipher` (or plain, without one). */
export class SealedRows {
  constructor(private readonly cipher: ArchiveCipher | undefined) {}

  /**
   * @returns the plaintext body of a stored row.
   * @throws ArchiveDecryptError naming the key id when the row is encrypted and cannot be opened.
   */
  body(identity: RowIdentity, row: { body: string; keyId: string | null }): string {
    if (row.keyId === null) return row.body;
    return this.need(identity, row.keyId).open(identity, row.keyId, row.body);
  }

  /** @returns a stored message, with the SHA-256 content hash whether or not it is stored encrypted. */
  message(key: string, row: SealedEntry): ArchivedMessage {
    const message = parseBody(this.body(entryIdentity(key, 'message', row.seq, row.revision), row));
    return { seq: row.seq, revision: row.revision, hash: this.plainHash(row, message), message };
  }

  /** @returns a stored fold record. */
  fold(key: string, row: SealedEntry): FoldRecord {
    return parseFoldRecord(parseBody(this.body(entryIdentity(key, 'fold', row.seq, row.revision), row)));
  }

  /** @returns a superseded revision as `superseded()` returns it. */
  superseded(
    key: string,
    row: SealedEntry & { kind: EntryKind; storedAt: string; supersededAt: string }
  ): SupersededRevision {
    const value = parseBody(this.body(entryIdentity(key, row.kind, row.seq, row.revision), row));
    const { kind, seq, revision, storedAt, supersededAt } = row;
    return { kind, seq, revision, hash: this.plainHash(row, value), storedAt, supersededAt, value };
  }

  /** @returns the summary row to store for `summary` (already checked). */
  sealSummary(key: string, summary: FoldSummaryText): SealedSummary {
    const { digest, kind, text } = summary;
    if (!this.cipher) return { digest, kind, body: text, keyId: null };
    return { digest, kind, body: this.cipher.seal(summaryIdentity(key, digest), text), keyId: this.cipher.keyId };
  }

  /** @returns a stored summary. */
  summary(key: string, row: SealedSummary & { storedAt: string }): StoredSummary {
    const text = this.body(summaryIdentity(key, row.digest), row);
    return { digest: row.digest, kind: row.kind, text, storedAt: row.storedAt };
  }

  /**
   * Decides a write (`planWrite`) against the current rows of its numbers and seals what it stores. A stored hash is
   * compared in the form the head holds it (plain, or the HMAC of the head's key), so a retry after a key rotation or
   * after encryption was turned on is still unchanged.
   * @param heads the current rows (fold rows with their stored body).
   * @throws ArchiveDecryptError when a head is encrypted with a key that is not configured.
   */
  plan(key: string, kind: EntryKind, entries: readonly PreparedEntry[], heads: readonly SealedHead[]): SealedPlan {
    const opened: StoredHead[] = heads.map((h) => ({
      ...h,
      body:
        h.body === undefined
          ? undefined
          : this.body(entryIdentity(key, kind, h.seq, h.revision), { ...h, body: h.body }),
    }));
    const byNumber = new Map(opened.map((h) => [h.seq, h]));
    const plan = planWrite(
      entries,
      opened,
      (entry, head) => this.storedHash([key, kind, head.seq], entry.hash, head) === head.hash
    );
    const seal = (e: PreparedEntry, revision: number): SealedEntry => {
      if (!this.cipher) return { seq: e.seq, revision, hash: e.hash, body: e.body, keyId: null };
      const identity = entryIdentity(key, kind, e.seq, revision);
      const { keyId } = this.cipher;
      const hash = this.cipher.hash([key, kind, e.seq], e.hash);
      return { seq: e.seq, revision, hash, body: this.cipher.seal(identity, e.body), keyId };
    };
    const inserts = plan.inserts.map((e) => seal(e, 0));
    const supersedes = plan.supersedes.map((e) => seal(e, e.revision));
    const written = [...plan.supersedes, ...plan.inserts];
    const stored = [...supersedes, ...inserts];
    return {
      inserts,
      supersedes,
      stale: plan.stale.map((e) => ({
        kept: seal(e, e.revision),
        head: this.restamp(key, kind, byNumber.get(e.seq)!, e.revision + 1),
      })),
      search:
        kind === 'message'
          ? searchRows(
              written.map((e, i) => ({ seq: e.seq, hash: stored[i]!.hash, body: e.body })),
              this.cipher && { cipher: this.cipher, key }
            )
          : [],
      outcome: plan.outcome,
    };
  }

  /** The current row of a late write's number, at `revision` (sealed again for it, with its own key). */
  private restamp(key: string, kind: EntryKind, head: StoredHead, revision: number): SealedEntry {
    const keyId = head.keyId ?? null;
    const body = head.body!;
    const sealed =
      keyId === null ? body : this.need([], keyId).seal(entryIdentity(key, kind, head.seq, revision), body, keyId);
    return { seq: head.seq, revision, hash: head.hash, body: sealed, keyId };
  }

  /** A content hash in the form `head` stores hashes. */
  private storedHash(place: RowIdentity, hash: string, head: StoredHead): string {
    const keyId = head.keyId ?? null;
    return keyId === null ? hash : this.need([], keyId).hash(place, hash, keyId);
  }

  /** The SHA-256 content hash of a row: stored as such when plain, computed from the opened value when encrypted. */
  private plainHash(row: SealedEntry, value: unknown): string {
    return row.keyId === null ? row.hash : contentHash(canonicalJson(value));
  }

  private need(identity: RowIdentity, keyId: string): ArchiveCipher {
    if (this.cipher) return this.cipher;
    const what = identity.length > 0 ? `the archive row ${describeRow(identity)} is` : 'archive rows are';
    throw new ArchiveDecryptError(
      `${what} encrypted with key '${keyId.slice(0, 64)}', but the archive is opened without encryption: set archive.encrypt and the keys (codec.keysEnv)`
    );
  }
}

/** A head as a driver reads it: hash and key id, and for fold records the stored body. */
export type SealedHead = Omit<SealedEntry, 'body'> & { body?: string };

/** @returns the identity a summary's body is bound to. */
function summaryIdentity(key: string, digest: string): RowIdentity {
  return [key, 'summary', digest];
}
