/**
 * Sums over the live context kept as it changes, and a short log of where it changed, so an ordinary step reads them
 * in O(new messages) instead of a pass over the whole context. Derived from the live entries only (never carried): a
 * new run rebuilds it from the carried state, and a replay rebuilds it the same way.
 */
import { utf8Length } from '../../contract/bytes';
import type { LiveEntry } from './live-entry';
import { isRulesEntry } from './pinned-messages';

/** Edits remembered for {@link LiveTally.unchangedBelow}; a reader further behind compares from the start. */
const EDITS_KEPT = 64;

/** @returns the bytes of a message as JSON. */
export function jsonBytes(raw: unknown): number {
  return utf8Length(JSON.stringify(raw) ?? '');
}

/**
 * Sizes of messages already weighed, by identity: a message is never changed in place (a rewrite is a new object),
 * so a size read here is the size a replay computes afresh.
 */
const weighedBytes = new WeakMap<object, number>();

/** @returns the bytes of a message as JSON, weighed once per message object. */
export function bytesOf(raw: unknown): number {
  if (typeof raw !== 'object' || raw === null) return jsonBytes(raw);
  let bytes = weighedBytes.get(raw);
  if (bytes === undefined) weighedBytes.set(raw, (bytes = jsonBytes(raw)));
  return bytes;
}

/** The running sums of one live context and the positions its recent versions changed from. */
export class LiveTally {
  /** Counted tokens of the live messages (without the fixed per-request tokens). */
  tokens = 0;
  /** Bytes of the live messages as JSON. */
  bytes = 0;
  /** Rules elements in the live context. */
  rules = 0;
  /** Per version bump, the lowest position it changed (oldest first, at most {@link EDITS_KEPT}). */
  private edits: { version: number; at: number }[] = [];
  /** Versions up to this one may have changed anything: their edits are not remembered. */
  private forgotten: number;

  /** Tallies `live`, at `version`: no edit before it is known. */
  constructor(live: readonly LiveEntry[], version: number) {
    this.forgotten = version;
    this.reset(live);
  }

  /** Tallies the whole context again (after a change that rewrites most of it: fold, clear, recount). */
  reset(live: readonly LiveEntry[]): void {
    this.tokens = 0;
    this.bytes = 0;
    this.rules = 0;
    for (const e of live) this.add(e);
  }

  /** Counts an entry that joined the context. */
  add(e: Readonly<LiveEntry>): void {
    this.tokens += e.tokens;
    this.bytes += bytesOf(e.raw);
    if (isRulesEntry(e)) this.rules++;
  }

  /** Uncounts an entry that left the context (or is about to be rewritten in place). */
  remove(e: Readonly<LiveEntry>): void {
    this.tokens -= e.tokens;
    this.bytes -= bytesOf(e.raw);
    if (isRulesEntry(e)) this.rules--;
  }

  /** Notes that the context at `version` differs from the one before it from position `at` on. */
  edited(version: number, at: number): void {
    this.edits.push({ version, at });
    if (this.edits.length > EDITS_KEPT) this.forgotten = this.edits.shift()!.version;
  }

  /**
   * @returns the length of the prefix no version after `since` changed: positions before it hold the entries they
   *   held at `since` (`Infinity` when nothing changed; 0 when `since` is older than the edits remembered).
   */
  unchangedBelow(since: number): number {
    if (since < this.forgotten) return 0;
    let from = Infinity;
    for (let k = this.edits.length - 1; k >= 0 && this.edits[k]!.version > since; k--) {
      from = Math.min(from, this.edits[k]!.at);
    }
    return from;
  }
}
