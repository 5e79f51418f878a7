/**
 * The state of one conversation and its synchronous transitions. Pure and deterministic: the workflow calls
 * activities and hands their results here; nothing here awaits, reads a clock or does I/O, so every transition
 * replays identically and can be unit-tested without a server.
 */
import { applyCalibration, dropAnchor, recordUsage, type Calibration } from '../../core/calibration';
import { applyTruncate } from '../../core/fold/apply';
import type { BackoffMemory } from '../../core/fold/backoff';
import { emptyHotPaths, noteTurn, readsIn } from '../../core/fold/hot-paths';
import type { FoldRecord } from '../../core/fold/fold-record';
import type { FoldRecordTimes } from '../../activities/types';
import type { CarriedLedger } from '../../core/fold/state-ledger/carried-check';
import { detectFormat } from '../../core/messages/detect';
import { currentFormatName } from '../../core/messages/format-name';
import { upgradesToResponses } from '../../core/messages/format-upgrade';
import { extendTranscript, normalize, replaceItems } from '../../core/messages/normalize';
import type { MessageFormat, Transcript } from '../../core/messages/types';
import { TranscriptValidationError } from '../../core/messages/validate';
import { ConversationClosed } from '../../contract/closed';
import { utf8Length } from '../../contract/bytes';
import type { AppendInput, ContextPatch, ContextSnapshot } from '../../contract/definitions';
import { diffContext, type EntryKey } from '../../contract/patch';
import type { PendingFold } from './pending-fold';
import type { SummaryOutcome } from '../fold/fold-step';
import { placeRules, type PreparedRules } from './pinned-messages';
import { noteSent, type SentContext } from './sent-contexts';
import { defaultLimits, type ConversationSettings, type RunLimits } from '../../contract/settings';
import { isRetry, noteApplied } from './writers';
import type { CarriedState, ReadonlyCarriedState } from './carried-state';
import type { LiveEntry } from './live-entry';
import { LiveTally } from './live-tally';

export type { LiveEntry } from './live-entry';

export type { CarriedState, ReadonlyCarriedState } from './carried-state';

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
  /** The keys of the caller's mirror plus the sent messages, as the caller sees them (for the patch). */
  mirror: Mirror;
  baseVersion: number;
}

/**
 * The caller's mirror at a staged append, without a copy of the context: the live entries at the stage are
 * `live[0..length)` (the live array is never edited in place below its end: an edit other than an append makes a
 * new array, so this one keeps them; an entry's key never changes in place), then one key per sent message.
 */
export interface Mirror {
  live: readonly EntryKey[];
  length: number;
  sent: EntryKey[];
}

/** Counts of the whole live context redone for another model (`configure`). */
export interface Recount {
  /** One count per live message, in order. */
  counts: readonly number[];
  toolTokens: number;
  replyPriming: number;
}

/**
 * One conversation's state. Every change goes through a method here; callers read the fields through `carried`
 * (read-only at the top level) and hand the whole object over with `handOver` at continue-as-new.
 */
export class ConversationState {
  private readonly data: CarriedState;
  /**
   * The messages held by reference since the last patch, as they were before their stubs (by entry; not carried). A
   * message new or rewritten in the same step (clipped, lightened, evicted) is not in the caller's mirror yet, so the
   * patch inserts it: as this message, never as its stub.
   */
  private unstubbed = new Map<LiveEntry, unknown>();
  /** Running sums over the live context and where it changed (derived, not carried: rebuilt for every run). */
  private readonly tally: LiveTally;

  /**
   * Wraps a carried state (from `create` or from the previous run). A fold summary still being written when that run
   * ended is dropped: its activity belonged to that run; a summary already in crosses over.
   */
  constructor(carried: CarriedState) {
    this.data = carried;
    // A run started before the typed format was renamed hands over 's0'.
    carried.format = currentFormatName(carried.format);
    if (carried.pendingFold && !carried.pendingFold.outcome) carried.pendingFold = null;
    this.tally = new LiveTally(carried.live, carried.version);
  }

  /** The state's fields, to read (read-only down to the live entries): every change is a method of this class. */
  get carried(): ReadonlyCarriedState {
    return this.data;
  }

  /** A fresh conversation. */
  static create(
    conversationId: string,
    settings: ConversationSettings,
    limits: RunLimits = defaultLimits
  ): ConversationState {
    return new ConversationState({
      conversationId,
      settings,
      limits,
      format: null,
      live: [],
      nextSeq: 0,
      version: 0,
      lastClientSeq: -1,
      writers: [],
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
      sent: [],
      pendingFold: null,
      turnReads: [],
    });
  }

  /** Raw messages of the live context, in order. */
  raws(): unknown[] {
    return this.data.live.map((e) => e.raw);
  }

  /** Sum of the live messages' counts plus the fixed per-request tokens (uncalibrated). */
  countedTokens(): number {
    return this.data.fixedTokens + this.tally.tokens;
  }

  /** Sum of the live messages' counts (without the fixed per-request tokens). */
  liveTokens(): number {
    return this.tally.tokens;
  }

  /** Bytes of the live messages as JSON (what the byte budget bounds). */
  liveBytes(): number {
    return this.tally.bytes;
  }

  /** Whether a rules element is in the live context. */
  holdsRules(): boolean {
    return this.tally.rules > 0;
  }

  /**
   * @returns the length of the live context's prefix unchanged since version `since` (its entries are the ones it
   *   held then; `Infinity` when nothing changed since, 0 when that is too long ago to tell).
   */
  unchangedBelow(since: number): number {
    return this.tally.unchangedBelow(since);
  }

  /** Counts a new version of the live context, changed from position `at` on. */
  private bump(at: number): void {
    this.data.version++;
    this.tally.edited(this.data.version, at);
  }

  private cached: { version: number; transcript: Transcript } | undefined;

  /** The live transcript, normalised (once per version: appending, folding and planning all read it). */
  transcript(): Transcript {
    if (this.cached?.version !== this.data.version) {
      this.cached = {
        version: this.data.version,
        transcript: normalize(this.raws(), this.data.format ?? undefined, { stored: true }),
      };
    }
    return this.cached.transcript;
  }

  /**
   * Checks an append and drops what was already appended (same clientSeq, or a message id seen recently).
   * Synchronous: runs in the update validator and again in the handler. The format is detected from unambiguous
   * evidence only; a conversation read as chat becomes Responses when Responses items arrive (`upgradesToResponses`).
   * @returns the staged append (possibly with no messages when it is a pure retry).
   * @throws AppendRejected naming the bad message; nothing is stored.
   */
  stage(input: AppendInput): StagedAppend {
    if (this.data.closed) throw new ConversationClosed();
    if (typeof input !== 'object' || input === null) throw new AppendRejected('append input must be an object');
    if (!Array.isArray(input.messages)) throw new AppendRejected('append input.messages must be an array');
    if (input.clientSeq !== undefined && !(Number.isInteger(input.clientSeq) && input.clientSeq >= 0)) {
      throw new AppendRejected(`clientSeq must be a non-negative integer, got ${JSON.stringify(input.clientSeq)}`);
    }
    const mirror: Mirror = { live: this.data.live, length: this.data.live.length, sent: [] };
    const base = { mirror, baseVersion: this.data.version, firstSeq: this.data.nextSeq };
    const retry =
      input.writer !== undefined && input.clientSeq !== undefined
        ? isRetry(this.data.writers, input.writer, input.clientSeq)
        : input.clientSeq !== undefined && input.clientSeq <= this.data.lastClientSeq;
    // Built at the first message with an id: an append without ids reads none of the remembered ones.
    let seen: Set<string> | undefined;
    const sentIndex: number[] = [];
    const fresh: unknown[] = [];
    if (!retry) {
      input.messages.forEach((m, i) => {
        const id = messageId(m);
        if (id !== undefined && (seen ??= new Set(this.data.recentIds)).has(id)) return;
        if (id !== undefined) seen!.add(id);
        sentIndex.push(i);
        fresh.push(m);
      });
    }
    input.messages.forEach((m, i) => {
      const size = utf8Length(JSON.stringify(m) ?? '');
      if (size > this.data.settings.maxMessageBytes) {
        throw new AppendRejected(
          `message ${i} is ${size} bytes of JSON, over the ${this.data.settings.maxMessageBytes}-byte limit (settings.maxMessageBytes)`
        );
      }
    });
    let format = this.data.format ?? (fresh.length > 0 ? safeDetect(fresh) : 'chat');
    // The stored raws are read lazily: only an append of Responses items makes them worth reading.
    if (format === 'chat' && !this.data.formatFixed && upgradesToResponses(rawsOf(this.data.live), fresh)) {
      format = 'responses';
    }
    let extended: Transcript | undefined;
    if (fresh.length > 0) {
      try {
        // Only the new messages are read: the live transcript is normalised once per version (see `transcript`), and
        // the handler takes what the validator read of the same messages on the same transcript.
        const prior = this.staged;
        const current = this.data.format === format ? this.transcript() : undefined;
        extended =
          current === undefined
            ? normalize([...this.raws(), ...fresh], format)
            : prior?.base === current && sameElements(prior.messages, fresh)
              ? prior.transcript
              : extendTranscript(current, fresh);
        this.staged = { base: current, messages: fresh, transcript: extended };
      } catch (err) {
        if (err instanceof TranscriptValidationError) {
          const at = err.index - this.data.live.length;
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
    input.messages.forEach((_, i) => mirror.sent.push({ uid: `sent:${i}`, rev: 0 }));
    if (!extended) this.staged = undefined;
    return { ...base, messages: fresh, sentIndex, format };
  }

  /**
   * The transcript the last `stage` validated and the one it extended (`base`; none when it read everything), for
   * `commitAppend` to keep when it stores those messages unchanged.
   */
  private staged: { base: Transcript | undefined; messages: unknown[]; transcript: Transcript } | undefined;

  /**
   * Appends staged messages with their counts. `replaced` carries clipped versions of oversized messages by position.
   * @returns nothing; bumps the version when anything was appended.
   */
  commitAppend(
    staged: StagedAppend,
    counts: number[],
    replaced: { index: number; raw: unknown; tokens: number }[],
    clientSeq: number | undefined,
    writer?: string,
    hash?: string
  ): void {
    if (writer !== undefined && clientSeq !== undefined) {
      noteApplied(this.data.writers, writer, clientSeq, hash);
    } else if (clientSeq !== undefined && clientSeq > this.data.lastClientSeq) {
      this.data.lastClientSeq = clientSeq;
      if (hash === undefined) delete this.data.lastClientHash;
      else this.data.lastClientHash = hash;
    }
    if (staged.messages.length === 0) return;
    this.data.format = staged.format; // the first append's, or Responses after an upgrade
    const byIndex = new Map(replaced.map((r) => [r.index, r]));
    const firstNew = this.data.live.length;
    staged.messages.forEach((raw, i) => {
      const seq = staged.firstSeq + i;
      const clipped = byIndex.get(i);
      const entry = {
        raw: clipped ? clipped.raw : raw,
        tokens: clipped ? clipped.tokens : (counts[i] ?? 0),
        uid: `m${seq}`,
        rev: clipped ? 1 : 0,
        seq,
      };
      this.data.live.push(entry);
      this.tally.add(entry);
      // The caller holds what it sent, so an unclipped new message is a copy from its side, not an insert.
      if (!clipped) renameSent(staged.mirror.sent, staged.sentIndex[i]!, `m${seq}`);
      const id = messageId(raw);
      if (id !== undefined) this.data.recentIds.push(id);
    });
    if (this.data.recentIds.length > RECENT_IDS) this.data.recentIds.splice(0, this.data.recentIds.length - RECENT_IDS);
    // Nothing clipped and nothing changed since `stage`: the live transcript is the one it validated (same raws).
    const validated = this.staged;
    const keep =
      replaced.length === 0 &&
      validated?.messages === staged.messages &&
      staged.baseVersion === this.data.version &&
      (validated.base === undefined || validated.base === this.cached?.transcript);
    this.staged = undefined;
    this.data.nextSeq += staged.messages.length;
    this.bump(firstNew);
    if (keep) this.cached = { version: this.data.version, transcript: validated.transcript };
    this.noteReads(this.data.live.length - staged.messages.length);
  }

  /**
   * Inserts messages the workflow wrote (synthetic results of abandoned calls) into the stored context, each before
   * position `at` of the context as it was before these inserts, with its count; their archive sequence numbers
   * follow the last one used. @returns nothing; bumps the version.
   */
  insertInLive(inserts: readonly { at: number; raw: unknown }[], counts: readonly number[]): void {
    if (inserts.length === 0) return;
    // A new array (a staged mirror keeps the old one); from the last position back, so earlier ones still hold.
    const live = this.data.live.slice();
    for (let k = inserts.length - 1; k >= 0; k--) {
      const seq = this.data.nextSeq + k;
      const entry = { raw: inserts[k]!.raw, tokens: counts[k] ?? 0, uid: `m${seq}`, rev: 0, seq };
      live.splice(inserts[k]!.at, 0, entry);
      this.tally.add(entry);
    }
    this.data.live = live;
    this.data.nextSeq += inserts.length;
    this.bump(Math.min(...inserts.map((i) => i.at)));
    this.data.sent = [];
  }

  /** Scores file reads per user turn (hot paths) for the messages from `from` on. */
  private noteReads(from: number): void {
    const t = this.transcript();
    for (let i = from; i < t.items.length; i++) {
      if (t.items[i]!.turnStart) {
        this.data.hotPaths = noteTurn(this.data.hotPaths, this.data.turnReads);
        this.data.turnReads = [];
      }
      this.data.turnReads.push(...readsIn(t, i, i + 1));
    }
    if (this.data.turnReads.length > TURN_READS) this.data.turnReads.splice(0, this.data.turnReads.length - TURN_READS);
  }

  /**
   * Drops a truncating plan's items (the `rounds` policy's truncate mode: no summary; the archive keeps them). The last reported
   * context is no longer a prefix of this one: the calibration keeps its ratio and forgets its anchor.
   * @returns nothing; bumps the version.
   */
  commitTruncate(transcript: Transcript, plan: Parameters<typeof applyTruncate>[0]['plan']): void {
    const kept = new Set(applyTruncate({ transcript, plan }));
    this.data.live = this.data.live.filter((e) => kept.has(e.raw));
    this.tally.reset(this.data.live);
    this.bump(0);
    this.data.sent = [];
    this.data.calibration = dropAnchor(this.data.calibration);
  }

  /**
   * Swaps evicted or lightened messages in (eviction of stale tool outputs, the byte budget): each replacement is a new revision of its
   * message, so the caller's mirror receives it as an insert; a position past the context is skipped. The calibration
   * forgets its anchor. @returns nothing; bumps the version.
   */
  commitEviction(replaced: { index: number; raw: unknown; tokens: number }[]): void {
    this.data.live = this.data.live.slice(); // a staged mirror keeps the old array
    let from = this.data.live.length;
    for (const r of replaced) {
      const entry = this.data.live[r.index];
      if (!entry) continue;
      // A new entry, not an edit: a staged append's `before` holds the old one, with the key the caller's mirror has.
      const { ref: _ref, ...kept } = entry;
      const next = { ...kept, raw: r.raw, tokens: r.tokens, rev: entry.rev + 1 };
      this.data.live[r.index] = next;
      this.tally.remove(entry);
      this.tally.add(next);
      from = Math.min(from, r.index);
    }
    this.bump(from);
    this.data.sent = [];
    this.data.calibration = dropAnchor(this.data.calibration);
  }

  /**
   * Holds messages by reference (`core/fold/reference-stub.ts`): each one's raw becomes its stub while its uid, rev
   * and token count stay, so the context the caller holds and the model is sent is unchanged (no new version, no
   * patch, the calibration's anchor kept). The transcript reads the stubs: only them, when their ids are the same.
   */
  commitReferences(referenced: readonly { index: number; raw: unknown; bytes: number }[]): void {
    const stubs: { index: number; raw: unknown }[] = [];
    for (const r of referenced) {
      const entry = this.data.live[r.index];
      if (!entry || entry.seq === null) continue;
      if (!entry.ref) this.unstubbed.set(entry, entry.raw);
      this.tally.remove(entry);
      entry.raw = r.raw;
      entry.ref = { bytes: r.bytes };
      this.tally.add(entry);
      stubs.push(r);
    }
    if (referenced.length === 0) return;
    const current = this.cached?.version === this.data.version ? this.cached.transcript : undefined;
    const transcript = current && replaceItems(current, stubs);
    this.cached = transcript && { version: this.data.version, transcript };
  }

  /**
   * The patch from the caller's mirror (plus what it sent) to the current context; a message held by reference is
   * inserted as itself (the caller holds no stub). Forgets the messages held since the last patch.
   */
  patch(staged: Pick<StagedAppend, 'mirror' | 'baseVersion'>): ContextPatch {
    const unstubbed = this.unstubbed;
    this.unstubbed = new Map();
    // The mirror's keys are the live context's at `baseVersion`: the prefix unchanged since is not copied or compared.
    const { mirror } = staged;
    const same = Math.min(this.tally.unchangedBelow(staged.baseVersion), mirror.length, this.data.live.length);
    const rest = same === mirror.length ? mirror.sent : [...mirror.live.slice(same, mirror.length), ...mirror.sent];
    return diffContext(
      rest,
      this.data.live,
      staged.baseVersion,
      this.data.version,
      (e) => (unstubbed.has(e) ? unstubbed.get(e) : e.raw),
      same
    );
  }

  /**
   * Replaces the live context with a folded one, built and counted by the fold step before this commit: kept entries
   * by identity, the inserted summary elements as new entries `s<foldNumber>.<k>` with their counts.
   * @param calibration the calibration the fold step measured the folded context with (its anchor dropped).
   * @returns the uids of the inserted entries.
   */
  commitFold(
    applied: { folded: readonly unknown[]; counts: readonly number[] },
    foldNumber: number,
    calibration: Calibration | null
  ): string[] {
    const byRaw = new Map(this.data.live.map((e) => [e.raw, e]));
    const uids: string[] = [];
    this.data.live = applied.folded.map((raw) => {
      const kept = byRaw.get(raw);
      if (kept) return kept;
      const uid = `s${foldNumber}.${uids.length}`;
      const tokens = applied.counts[uids.length] ?? 0;
      uids.push(uid);
      return { raw, tokens, uid, rev: 0, seq: null };
    });
    this.tally.reset(this.data.live);
    this.bump(0);
    this.data.sent = [];
    this.data.calibration = calibration;
    return uids;
  }

  /** Keeps the state ledger of the fold just committed (`null`: the next fold reads it from the summary). */
  carryLedger(ledger: CarriedLedger | null): void {
    this.data.ledger = ledger;
  }

  /** The next fold's number (numbers every fold attempt, applied or not, in order). */
  nextFoldNumber(): number {
    return ++this.data.foldCount;
  }

  /**
   * Records a fold attempt (bounded in state; the archive keeps every record) with what it leaves behind.
   * @param after `backoff`: the back-off memory after this attempt (given: replaced; absent: kept, as when a model
   *   summary replaces a fallback's); `lastError`: why it failed, stamped with the record's `finishedAt`.
   */
  recordFold(record: FoldRecord, after: { backoff?: BackoffMemory | null; lastError?: string | null } = {}): void {
    if (after.backoff !== undefined) this.data.backoff = after.backoff;
    if (after.lastError) this.data.lastError = { at: record.finishedAt, message: after.lastError };
    this.data.folds.push(record);
    if (this.data.folds.length > FOLDS_KEPT) this.data.folds.splice(0, this.data.folds.length - FOLDS_KEPT);
  }

  /**
   * Takes the task times the archive write reported for fold `t.number`: on a replay they come from history and are
   * the times the record was written with, which the replay's own workflow clock may not give again. Also moves
   * `lastError`'s stamp when it was that record's. A record no longer held is left alone.
   */
  adoptFoldTimes(t: FoldRecordTimes): void {
    const k = this.data.folds.findIndex((f) => f.number === t.number);
    const held = this.data.folds[k];
    if (!held || (held.startedAt === t.startedAt && held.finishedAt === t.finishedAt)) return;
    if (this.data.lastError?.at === held.finishedAt) this.data.lastError = { ...this.data.lastError, at: t.finishedAt };
    this.data.folds[k] = { ...held, startedAt: t.startedAt, finishedAt: t.finishedAt };
  }

  /**
   * Removes the last round: the last real user turn and everything after it, and drops the
   * calibration's anchor. The ids of the removed messages are forgotten, so sending such a message again appends it.
   * @returns the removed messages.
   * @throws ConversationClosed when closed; AppendRejected when there is no user turn after the last fold to remove.
   *   Nothing changes then.
   */
  rewind(): unknown[] {
    if (this.data.closed) throw new ConversationClosed();
    const t = this.transcript();
    let start = -1;
    for (let i = t.items.length - 1; i >= 0; i--) {
      if (t.items[i]!.turnStart) {
        start = i;
        break;
      }
    }
    if (start < 0) throw new AppendRejected('nothing to rewind: no user turn in the live context since the last fold');
    const gone = this.data.live.slice(start);
    this.data.live = this.data.live.slice(0, start); // a staged mirror keeps the old array
    for (const e of gone) this.tally.remove(e);
    const removed = gone.map((e) => e.raw);
    this.bump(start);
    this.data.sent = [];
    this.forgetIds(removed);
    this.data.calibration = dropAnchor(this.data.calibration);
    return removed;
  }

  /** Forgets the ids of removed messages, so sending such a message again appends it. */
  private forgetIds(removed: readonly unknown[]): void {
    const gone = new Set(removed.map(messageId).filter((id): id is string => id !== undefined));
    if (gone.size > 0) this.data.recentIds = this.data.recentIds.filter((id) => !gone.has(id));
  }

  /**
   * Drops everything but the instructions (system/developer messages, rules) and pinned messages, the back-off and
   * the calibration's anchor, and forgets the ids of the removed messages.
   * @returns the number of messages removed.
   * @throws ConversationClosed when closed; nothing changes then.
   */
  clear(): number {
    if (this.data.closed) throw new ConversationClosed();
    const t = this.transcript();
    const before = this.data.live;
    this.data.live = before.filter((e, i) => t.items[i]!.role === 'instructions' || e.pinned === true);
    this.tally.reset(this.data.live);
    this.data.backoff = null;
    this.bump(0);
    this.data.sent = [];
    const kept = new Set(this.raws());
    this.forgetIds(before.map((e) => e.raw).filter((raw) => !kept.has(raw)));
    this.data.calibration = dropAnchor(this.data.calibration);
    return before.length - this.data.live.length;
  }

  /**
   * Takes the provider's reported input tokens for a context we counted `estimated` into the calibration.
   * @param estimated our count of the context the report names; `undefined` when it names none we know.
   * @returns whether the calibration changed: a report of an unknown context, or of no positive finite number of
   *   tokens, changes nothing.
   */
  calibrate(estimated: number | undefined, reported: number): boolean {
    if (estimated === undefined || !(Number.isFinite(reported) && reported > 0)) return false;
    this.data.calibration = recordUsage(this.data.calibration, { estimated, reported });
    return true;
  }

  /** Counted tokens corrected by what the provider reported for earlier contexts. */
  estimatedTokens(): number {
    return applyCalibration(this.data.calibration, this.countedTokens());
  }

  /** Remembers a context returned to the caller with our count, for usage reported about it later. */
  noteSent(sent: SentContext): void {
    this.data.sent = noteSent(this.data.sent, sent);
  }

  /** The tool definitions an append brought: every request carries them from now on (count them next). */
  useTools(tools: NonNullable<ConversationSettings['tools']>): void {
    this.data.settings = { ...this.data.settings, tools };
  }

  /** Sets what every request costs besides its messages: reply priming plus the tool definitions. */
  setFixedTokens(counted: { replyPriming: number; toolTokens: number }): void {
    this.data.toolTokens = counted.toolTokens;
    this.data.fixedTokens = counted.replyPriming + counted.toolTokens;
  }

  /** Sets the reply priming the `ingest` activity counted, plus the tool tokens counted before. */
  setReplyPriming(tokens: number): void {
    this.data.fixedTokens = tokens + (this.data.toolTokens ?? 0);
  }

  /**
   * Marks live messages as pinned (every fold keeps them verbatim, `clear` keeps them).
   * @throws RangeError for a position outside the live context, before marking any.
   */
  markPinned(indices: readonly number[]): void {
    const bad = indices.find((i) => this.data.live[i] === undefined);
    if (bad !== undefined) throw new RangeError(`no live message at position ${bad}`);
    for (const i of indices) this.data.live[i]!.pinned = true;
  }

  /** Puts a prepared rules element in place after the leading instructions (see `pinned-messages.ts`); bumps the version. */
  placeRules(rules: PreparedRules): void {
    const t = this.transcript();
    this.data.live = this.data.live.slice(); // a staged mirror keeps the old array
    placeRules(this.data.live, rules, (i) => t.items[i]?.role === 'instructions', this.data.version + 1);
    this.tally.reset(this.data.live);
    this.bump(0);
  }

  /**
   * New settings (`configure`, or the worker's configured defaults at start), checked by the caller.
   * @param recount the live context counted for the new model: the counts, tool and reply tokens are replaced and the
   *   calibration restarts (another vocabulary).
   */
  configure(next: ConversationSettings, recount?: Recount): void {
    if (recount) {
      // A stub's count would be its note's: a message held by reference keeps its original's count.
      this.data.live.forEach((e, i) => (e.tokens = e.ref ? e.tokens : (recount.counts[i] ?? e.tokens)));
      this.tally.reset(this.data.live);
      this.setFixedTokens(recount);
      this.data.calibration = null;
      this.data.sent = [];
    }
    this.data.settings = next;
  }

  /** The format the start argument gave: kept as given (no upgrade from chat to Responses). */
  fixFormat(format: MessageFormat): void {
    this.data.format = format;
    this.data.formatFixed = true;
  }

  /** Remembers an error only the `state` query can report (a signal's, the configured defaults'). */
  noteError(message: string, at: number): void {
    this.data.lastError = { at, message };
  }

  /** Closes the conversation: later appends, rewinds and clears are refused. @returns the final version. */
  close(): number {
    this.data.closed = true;
    return this.data.version;
  }

  /** Starts tracking a fold summarized in the background (one at a time). */
  startPendingFold(pending: PendingFold): void {
    this.data.pendingFold = pending;
  }

  /** Stores the summarizer's answer on `pending`, unless it was dropped meanwhile. @returns whether it was stored. */
  settlePendingFold(pending: PendingFold, outcome: SummaryOutcome): boolean {
    if (this.data.pendingFold !== pending) return false;
    pending.outcome = outcome;
    return true;
  }

  /** Marks that the offline fallback was applied over `pending`'s prefix (the model summary may replace it). */
  noteFallback(pending: PendingFold, fallback: NonNullable<PendingFold['fallback']>): void {
    pending.fallback = fallback;
  }

  /** Stops tracking the background fold (applied, discarded or replaced). */
  dropPendingFold(): void {
    this.data.pendingFold = null;
  }

  /**
   * Hands the state over to the next run (continue-as-new): counts the hand-over.
   * @returns the carried state, plain JSON.
   */
  handOver(): CarriedState {
    this.data.continuedAsNew++;
    return this.data;
  }

  /** The context query's answer. */
  snapshot(tokens: number): ContextSnapshot {
    return { version: this.data.version, format: this.data.format, messages: this.raws(), tokens };
  }
}

/** The id a message carries in its format (typed message `id`, Responses item `id`), used to skip duplicates. */
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

/** @returns whether two arrays hold the same elements (by identity) in the same order. */
function sameElements(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** @returns the raws of live entries, one at a time (for a reader that may stop early or not start). */
function* rawsOf(live: readonly LiveEntry[]): Generator<unknown> {
  for (const e of live) yield e.raw;
}

/** Renames the key of sent message `sentIndex` (the sent keys end `keys`: searched from the end). */
function renameSent(keys: EntryKey[], sentIndex: number, uid: string): void {
  const name = `sent:${sentIndex}`;
  for (let k = keys.length - 1; k >= 0; k--) {
    if (keys[k]!.uid === name) {
      keys[k] = { uid, rev: keys[k]!.rev };
      return;
    }
  }
}
