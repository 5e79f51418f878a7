/**
 * The state of one conversation and its synchronous transitions. Pure and deterministic: the workflow calls
 * activities and hands their results here; nothing here awaits, reads a clock or does I/O, so every transition
 * replays identically and can be unit-tested without a server.
 */
import { applyTruncate } from '../core/fold/apply';
import { emptyHotPaths, noteTurn, readsIn, type HotPaths } from '../core/fold/hot-paths';
import type { FoldRecord } from '../core/fold/fold-record';
import { detectFormat } from '../core/messages/detect';
import { upgradesToResponses } from '../core/messages/format-upgrade';
import { extendTranscript, normalize } from '../core/messages/normalize';
import type { MessageFormat, Transcript } from '../core/messages/types';
import { TranscriptValidationError } from '../core/messages/validate';
import { ConversationClosed } from '../contract/closed';
import { utf8Length } from '../contract/bytes';
import type { AppendInput, ContextPatch, ContextSnapshot } from '../contract/definitions';
import { diffContext, type EntryKey } from '../contract/patch';
import type { PendingFold } from './pending-fold';
import type { SentContext } from './sent-contexts';
import type { ConversationSettings } from '../contract/settings';
import { isRetry, noteApplied, type WriterTable } from './writers';

/** One message of the live context. */
export interface LiveEntry extends EntryKey {
  raw: unknown;
  tokens: number;
  /** Archive sequence number of the original message; `null` for summaries the workflow wrote. */
  seq: number | null;
  /** The caller pinned it (`pin: true`): every fold keeps it verbatim, `clear` keeps it (see `pins.ts`). */
  pinned?: boolean;
}

/** Everything carried across continue-as-new: plain JSON. */
export interface CarriedState {
  conversationId: string;
  settings: ConversationSettings;
  format: MessageFormat | null;
  /** Set when the start argument gave the format: it is kept as given (no upgrade from chat to Responses). */
  formatFixed?: boolean;
  live: LiveEntry[];
  nextSeq: number;
  version: number;
  lastClientSeq: number;
  /** Per-writer last applied sequence numbers (appends with a `writer`); absent in runs started before writers. */
  writers?: WriterTable;
  /** Ids of recently appended messages (bounded), for idempotent retries of appends without a clientSeq. */
  recentIds: string[];
  /** The most recent fold records (bounded); the archive keeps them all. */
  folds: FoldRecord[];
  foldCount: number;
  backoff: unknown;
  calibration: unknown;
  /** Extra tokens every request costs on top of its messages (reply priming, tool schemas). */
  fixedTokens: number;
  /** Tokens of `settings.tools`, part of `fixedTokens`. Absent in state carried by older code (no tools). */
  toolTokens?: number;
  lastError: { at: number; message: string } | null;
  closed: boolean;
  continuedAsNew: number;
  /**
   * Contexts produced since the last change that was not an append, with our count of each: usage reported for any
   * of them calibrates the estimate. Absent in state carried by older code.
   */
  sent?: SentContext[];
  /** Files read often lately (S1 hot paths): eviction keeps their latest read. */
  hotPaths: HotPaths;
  /** The fold summarized in the background, until it is applied (absent in states carried by older code). */
  pendingFold?: PendingFold | null;
  /** File reads of the current user turn so far (bounded), scored when the next turn starts. */
  turnReads: string[];
}

/** Recent message ids remembered for de-duplication. */
const RECENT_IDS = 2000;
/** File reads remembered for the current turn. */
const TURN_READS = 500;
/** Fold records kept in workflow state; older ones live in the archive only. */
const FOLDS_KEPT = 50;

/** Input rejected before anything is stored; the message names the message index and the problem. */
export class AppendRejected extends Error {
  override readonly name = 'AppendRejected';
}

/** The new messages of an append once duplicates are skipped. */
export interface StagedAppend {
  messages: unknown[];
  /** For each new message, its position in the sent array. */
  sentIndex: number[];
  firstSeq: number;
  format: MessageFormat;
  /** The mirror keys before the append plus the sent messages, as the caller sees them (for the patch). */
  before: EntryKey[];
  baseVersion: number;
}

/** One conversation's state. */
export class ConversationState {
  constructor(public s: CarriedState) {}

  /** A fresh conversation. */
  static create(conversationId: string, settings: ConversationSettings): ConversationState {
    return new ConversationState({
      conversationId,
      settings,
      format: null,
      live: [],
      nextSeq: 0,
      version: 0,
      lastClientSeq: -1,
      recentIds: [],
      folds: [],
      foldCount: 0,
      backoff: null,
      calibration: null,
      fixedTokens: 3,
      lastError: null,
      closed: false,
      continuedAsNew: 0,
      hotPaths: emptyHotPaths(),
      turnReads: [],
    });
  }

  /** Raw messages of the live context, in order. */
  raws(): unknown[] {
    return this.s.live.map((e) => e.raw);
  }

  /** Sum of the live messages' counts plus the fixed per-request tokens (uncalibrated). */
  countedTokens(): number {
    let total = this.s.fixedTokens;
    for (const e of this.s.live) total += e.tokens;
    return total;
  }

  private cached: { version: number; transcript: Transcript } | undefined;

  /** The live transcript, normalised (once per version: appending, folding and planning all read it). */
  transcript(): Transcript {
    if (this.cached?.version !== this.s.version) {
      this.cached = { version: this.s.version, transcript: normalize(this.raws(), this.s.format ?? undefined) };
    }
    return this.cached.transcript;
  }

  /**
   * Checks an append and drops what was already appended (same clientSeq, or a message id seen recently).
   * Synchronous: runs in the update validator and again in the handler.
   * @param upgrade whether a conversation read as chat may become Responses (see `upgradesToResponses`).
   * @returns the staged append (possibly with no messages when it is a pure retry).
   * @throws AppendRejected naming the bad message; nothing is stored.
   */
  stage(input: AppendInput, upgrade = true): StagedAppend {
    if (this.s.closed) throw new ConversationClosed();
    if (typeof input !== 'object' || input === null) throw new AppendRejected('append input must be an object');
    if (!Array.isArray(input.messages)) throw new AppendRejected('append input.messages must be an array');
    if (input.clientSeq !== undefined && !(Number.isInteger(input.clientSeq) && input.clientSeq >= 0)) {
      throw new AppendRejected(`clientSeq must be a non-negative integer, got ${JSON.stringify(input.clientSeq)}`);
    }
    const before: EntryKey[] = this.s.live.map(({ uid, rev }) => ({ uid, rev }));
    const base = { before, baseVersion: this.s.version, firstSeq: this.s.nextSeq };
    const retry =
      input.writer !== undefined && input.clientSeq !== undefined
        ? isRetry(this.s.writers ?? [], input.writer, input.clientSeq)
        : input.clientSeq !== undefined && input.clientSeq <= this.s.lastClientSeq;
    const seen = new Set(this.s.recentIds);
    const sentIndex: number[] = [];
    const fresh: unknown[] = [];
    if (!retry) {
      input.messages.forEach((m, i) => {
        const id = messageId(m);
        if (id !== undefined && seen.has(id)) return;
        if (id !== undefined) seen.add(id);
        sentIndex.push(i);
        fresh.push(m);
      });
    }
    input.messages.forEach((m, i) => {
      const size = utf8Length(JSON.stringify(m) ?? '');
      if (size > this.s.settings.maxMessageBytes) {
        throw new AppendRejected(
          `message ${i} is ${size} bytes of JSON, over the ${this.s.settings.maxMessageBytes}-byte limit (settings.maxMessageBytes)`
        );
      }
    });
    let format = this.s.format ?? (fresh.length > 0 ? safeDetect(fresh) : 'chat');
    if (format === 'chat' && upgrade && !this.s.formatFixed && upgradesToResponses(this.raws(), fresh)) {
      format = 'responses';
    }
    let extended: Transcript | undefined;
    if (fresh.length > 0) {
      try {
        // Only the new messages are read: the live transcript is normalised once per version (see `transcript`).
        extended =
          this.s.format === format
            ? extendTranscript(this.transcript(), fresh)
            : normalize([...this.raws(), ...fresh], format);
      } catch (err) {
        if (err instanceof TranscriptValidationError) {
          const at = err.index - this.s.live.length;
          throw new AppendRejected(
            at >= 0
              ? `message ${at} of this append: ${err.problem}`
              : `the append breaks the conversation: ${err.message}`
          );
        }
        throw new AppendRejected(String(err));
      }
    }
    // Keys the caller's mirror will hold once it adds what it sent: duplicates included, marked as unknown.
    input.messages.forEach((_, i) => before.push({ uid: `sent:${i}`, rev: 0 }));
    this.staged = extended && { baseVersion: this.s.version, messages: fresh, transcript: extended };
    return { ...base, messages: fresh, sentIndex, format };
  }

  /** The transcript the last `stage` validated, for `commitAppend` to keep when it stores those messages unchanged. */
  private staged: { baseVersion: number; messages: unknown[]; transcript: Transcript } | undefined;

  /**
   * Appends staged messages with their counts. `replaced` carries clipped versions of oversized messages by position.
   * @returns nothing; bumps the version when anything was appended.
   */
  commitAppend(
    staged: StagedAppend,
    counts: number[],
    replaced: { index: number; raw: unknown; tokens: number }[],
    clientSeq: number | undefined,
    writer?: string
  ): void {
    if (writer !== undefined && clientSeq !== undefined) noteApplied((this.s.writers ??= []), writer, clientSeq);
    else if (clientSeq !== undefined) this.s.lastClientSeq = Math.max(this.s.lastClientSeq, clientSeq);
    if (staged.messages.length === 0) return;
    this.s.format = staged.format; // the first append's, or Responses after an upgrade
    const byIndex = new Map(replaced.map((r) => [r.index, r]));
    staged.messages.forEach((raw, i) => {
      const seq = staged.firstSeq + i;
      const clipped = byIndex.get(i);
      this.s.live.push({
        raw: clipped ? clipped.raw : raw,
        tokens: clipped ? clipped.tokens : (counts[i] ?? 0),
        uid: `m${seq}`,
        rev: clipped ? 1 : 0,
        seq,
      });
      // The caller holds what it sent, so an unclipped new message is a copy from its side, not an insert.
      if (!clipped) renameSent(staged.before, staged.sentIndex[i]!, `m${seq}`);
      const id = messageId(raw);
      if (id !== undefined) this.s.recentIds.push(id);
    });
    if (this.s.recentIds.length > RECENT_IDS) this.s.recentIds.splice(0, this.s.recentIds.length - RECENT_IDS);
    // Nothing clipped and nothing changed since `stage`: the live transcript is the one it validated (same raws).
    const validated = this.staged;
    const keep =
      replaced.length === 0 && validated?.messages === staged.messages && validated.baseVersion === this.s.version;
    this.staged = undefined;
    this.s.nextSeq += staged.messages.length;
    this.s.version++;
    if (keep) this.cached = { version: this.s.version, transcript: validated.transcript };
    this.noteReads(this.s.live.length - staged.messages.length);
  }

  /**
   * Inserts messages the workflow wrote (synthetic results of abandoned calls) into the stored context, each before
   * position `at` of the context as it was before these inserts, with its count; their archive sequence numbers
   * follow the last one used. @returns nothing; bumps the version.
   */
  insertInLive(inserts: readonly { at: number; raw: unknown }[], counts: readonly number[]): void {
    if (inserts.length === 0) return;
    // From the last position back, so earlier positions still point where they did.
    for (let k = inserts.length - 1; k >= 0; k--) {
      const seq = this.s.nextSeq + k;
      const entry = { raw: inserts[k]!.raw, tokens: counts[k] ?? 0, uid: `m${seq}`, rev: 0, seq };
      this.s.live.splice(inserts[k]!.at, 0, entry);
    }
    this.s.nextSeq += inserts.length;
    this.s.version++;
    this.s.sent = [];
  }

  /** Scores file reads per user turn (S1 hot paths) for the messages from `from` on. */
  private noteReads(from: number): void {
    const t = this.transcript();
    for (let i = from; i < t.items.length; i++) {
      if (t.items[i]!.turnStart) {
        this.s.hotPaths = noteTurn(this.s.hotPaths, this.s.turnReads);
        this.s.turnReads = [];
      }
      this.s.turnReads.push(...readsIn(t, i, i + 1));
    }
    if (this.s.turnReads.length > TURN_READS) this.s.turnReads.splice(0, this.s.turnReads.length - TURN_READS);
  }

  /**
   * Drops a truncating plan's items (S3 truncate mode: no summary; the archive keeps them).
   * @returns nothing; bumps the version.
   */
  commitTruncate(transcript: Transcript, plan: Parameters<typeof applyTruncate>[0]['plan']): void {
    const kept = new Set(applyTruncate({ transcript, plan }));
    this.s.live = this.s.live.filter((e) => kept.has(e.raw));
    this.s.version++;
    this.s.sent = [];
  }

  /**
   * Swaps evicted tool outputs in (S1): each replacement is a new revision of its message, so the caller's mirror
   * receives it as an insert. @returns nothing; bumps the version.
   */
  commitEviction(replaced: { index: number; raw: unknown; tokens: number }[]): void {
    for (const r of replaced) {
      const entry = this.s.live[r.index];
      if (!entry) continue;
      entry.raw = r.raw;
      entry.tokens = r.tokens;
      entry.rev++;
    }
    this.s.version++;
    this.s.sent = [];
  }

  /** The patch from the caller's mirror (plus what it sent) to the current context. */
  patch(staged: Pick<StagedAppend, 'before' | 'baseVersion'>): ContextPatch {
    return diffContext(staged.before, this.s.live, staged.baseVersion, this.s.version);
  }

  /**
   * Replaces the live context with a folded one, built and counted by the fold step before this commit: kept entries
   * by identity, the inserted summary elements as new entries `s<foldNumber>.<k>` with their counts.
   * @returns the uids of the inserted entries.
   */
  commitFold(applied: { folded: readonly unknown[]; counts: readonly number[] }, foldNumber: number): string[] {
    const byRaw = new Map(this.s.live.map((e) => [e.raw, e]));
    const uids: string[] = [];
    this.s.live = applied.folded.map((raw) => {
      const kept = byRaw.get(raw);
      if (kept) return kept;
      const uid = `s${foldNumber}.${uids.length}`;
      const tokens = applied.counts[uids.length] ?? 0;
      uids.push(uid);
      return { raw, tokens, uid, rev: 0, seq: null };
    });
    this.s.version++;
    this.s.sent = [];
    return uids;
  }

  /** Records a fold attempt (bounded in state; the archive keeps every record). */
  recordFold(record: FoldRecord): void {
    this.s.folds.push(record);
    if (this.s.folds.length > FOLDS_KEPT) this.s.folds.splice(0, this.s.folds.length - FOLDS_KEPT);
  }

  /**
   * Removes the last round: the last real user turn and everything after it (S3 RemoveLastRound).
   * @returns the removed messages.
   * @throws AppendRejected when there is no user turn after the last fold to remove.
   */
  rewind(): unknown[] {
    if (this.s.closed) throw new ConversationClosed();
    const t = this.transcript();
    let start = -1;
    for (let i = t.items.length - 1; i >= 0; i--) {
      if (t.items[i]!.turnStart) {
        start = i;
        break;
      }
    }
    if (start < 0) throw new AppendRejected('nothing to rewind: no user turn in the live context since the last fold');
    const removed = this.s.live.splice(start);
    this.s.version++;
    this.s.sent = [];
    return removed.map((e) => e.raw);
  }

  /** Forgets the ids of removed messages, so sending such a message again appends it. */
  forgetIds(removed: readonly unknown[]): void {
    const gone = new Set(removed.map(messageId).filter((id): id is string => id !== undefined));
    if (gone.size > 0) this.s.recentIds = this.s.recentIds.filter((id) => !gone.has(id));
  }

  /** Drops everything but the instructions (system/developer messages, rules) and pinned messages. @returns the number of messages removed. */
  clear(): number {
    if (this.s.closed) throw new ConversationClosed();
    const t = this.transcript();
    const before = this.s.live.length;
    this.s.live = this.s.live.filter((e, i) => t.items[i]!.role === 'instructions' || e.pinned === true);
    this.s.backoff = null;
    this.s.version++;
    this.s.sent = [];
    return before - this.s.live.length;
  }

  /** The context query's answer. */
  snapshot(tokens: number): ContextSnapshot {
    return { version: this.s.version, format: this.s.format, messages: this.raws(), tokens };
  }
}

/** The id a message carries in its format (S0 `id`, Responses item `id`), used to skip duplicates. */
export function messageId(raw: unknown): string | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const id = (raw as Record<string, unknown>).id;
  return typeof id === 'string' && id !== '' ? id : undefined;
}

function safeDetect(messages: unknown[]): MessageFormat {
  try {
    return detectFormat(messages);
  } catch (err) {
    throw new AppendRejected(err instanceof Error ? err.message : String(err));
  }
}

function renameSent(keys: EntryKey[], sentIndex: number, uid: string): void {
  const key = keys.find((k) => k.uid === `sent:${sentIndex}`);
  if (key) key.uid = uid;
}
