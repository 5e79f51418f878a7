/**
 * Eviction: before anything is summarised, old tool-result payloads are swapped for typed pointers saying how to
 * get them back (see `pointer.ts`). Relevance first: a file read that a later read of the same file and range (or a
 * later whole-file read) supersedes goes first, even when recent; of the rest, the most recent results stay verbatim,
 * and so does the latest read of each hot path. Elements are never removed — only a result's output changes — so
 * every call keeps its result, and a second run changes nothing.
 */
import { adapterFor } from '../messages/adapter-for-format';
import type { Item, Transcript } from '../messages/types';
import { isHot, type HotPaths } from './hot-paths';
import { isOffloaded, pointerFor, pointerText, readKey, type OffloadPointer } from './pointer';

/** Results kept verbatim at the smallest and the largest budgets. */
export const MIN_KEEP_TOOL_RESULTS = 8;
export const MAX_KEEP_TOOL_RESULTS = 32;

/**
 * How many recent tool results to keep verbatim for a token budget: one per 10 000 tokens, clamped to 8…32.
 * @returns the count.
 */
export function keepToolResultsFor(budget: number): number {
  const n = Number.isFinite(budget) ? Math.floor(budget / 10_000) : MAX_KEEP_TOOL_RESULTS;
  return Math.min(MAX_KEEP_TOOL_RESULTS, Math.max(MIN_KEEP_TOOL_RESULTS, n));
}

/** Options of {@link evictStaleToolResults}. */
export interface EvictOptions {
  /**
   * Tool results kept verbatim, newest first; superseded reads do not count and are offloaded anyway.
   * @default keepToolResultsFor(budget), or 8 without a budget
   */
  keepRecent?: number;
  /** The context token budget, for the default of `keepRecent`. */
  budget?: number;
  /** Hot-path state; the latest live read of a hot path is kept past the `keepRecent` window. */
  hotPaths?: HotPaths;
  /** Another way to say a path is hot (either one suffices). */
  pinned?: (path: string) => boolean;
  /** Per-item token counts, to report what each offload saved. */
  tokens?: readonly number[];
  /**
   * Keep the `<system-reminder>` blocks of an offloaded output after its pointer: they are instructions to the agent
   * injected into tool output, not the output itself, and a summarizer must still see them. @default false
   */
  keepReminders?: boolean;
  /**
   * Results of at most this many characters stay verbatim whatever their age: a short result is what a summary keeps
   * whole (a status, a value, a policy line), and its pointer would save a few tokens. @default 0 (none)
   */
  keepShorterThan?: number;
}

const REMINDER_BLOCK = /<system-reminder>[\s\S]*?<\/system-reminder>/g;

/** One offloaded tool result. */
export interface Offload {
  /** Index of the result element in the caller's array. */
  index: number;
  /** Name of the tool whose output it was ('' when the call is unknown). */
  tool: string;
  /** How to get the output back. */
  pointer: OffloadPointer;
  /** The text that replaced the output. */
  text: string;
  /** Why it went: a later read superseded it, or it was older than the kept window. */
  reason: 'superseded' | 'stale';
  /** Length of the original output text, in UTF-16 code units. */
  originalChars: number;
  /** The element's token count before eviction, when `tokens` were given. */
  originalTokens?: number;
}

/** Result of {@link evictStaleToolResults}. */
export interface EvictResult {
  /** The caller's elements with offloaded outputs replaced; untouched elements are the same objects. */
  raws: unknown[];
  /** What was offloaded, in transcript order. */
  offloaded: Offload[];
}

interface Candidate {
  item: Item;
  pointer: OffloadPointer;
  text: string;
}

/**
 * Offloads stale tool-result payloads. A result is a candidate when it is not a pointer already and its output is
 * longer than its pointer would be (swapping a short output would grow the context). A file read is superseded by a
 * later candidate read of the same path and range, or by a later whole-file read of that path; different ranges do
 * not supersede each other. Walking from the newest, superseded reads are offloaded, the first `keepRecent` others
 * are kept, then the latest live read of each hot path is kept, and everything older is offloaded.
 * @returns the new raws and the offloads; idempotent (running it on its own output offloads nothing).
 */
export function evictStaleToolResults(transcript: Transcript, options: EvictOptions = {}): EvictResult {
  const keepRecent = Math.max(
    0,
    options.keepRecent ?? (options.budget !== undefined ? keepToolResultsFor(options.budget) : MIN_KEEP_TOOL_RESULTS)
  );
  const pinned = (path: string): boolean => (options.pinned?.(path) ?? false) || isHot(options.hotPaths, path);
  const { items } = transcript;

  const candidates: Candidate[] = [];
  for (const item of items) {
    if (item.role !== 'tool' || isOffloaded(item.text)) continue;
    // One pointer names one call: a turn answering several (Anthropic) keeps its outputs rather than misname them.
    if (item.moreAnswers?.length) continue;
    const a = item.answers;
    const pointer = pointerFor(a ? items[a.itemIndex]?.calls[a.callIndex] : undefined);
    const reminders = options.keepReminders ? (item.text.match(REMINDER_BLOCK) ?? []) : [];
    const text = [pointerText(pointer), ...reminders].join('\n');
    if (item.text.length > text.length && item.text.length > (options.keepShorterThan ?? 0))
      candidates.push({ item, pointer, text });
  }

  const superseded = supersededReads(candidates);
  const decisions = new Map<Candidate, Offload['reason']>();
  const seenHot = new Set<string>();
  let kept = 0;
  for (let i = candidates.length - 1; i >= 0; i--) {
    const c = candidates[i]!;
    if (superseded.has(c)) {
      decisions.set(c, 'superseded');
      continue;
    }
    const path = c.pointer.kind === 'file' ? c.pointer.path : undefined;
    const latestOfPath = path !== undefined && !seenHot.has(path);
    if (path !== undefined) seenHot.add(path);
    if (kept < keepRecent) kept++;
    else if (!(latestOfPath && pinned(path))) decisions.set(c, 'stale');
  }

  const raws = items.map((item) => item.raw);
  const offloaded: Offload[] = [];
  const adapter = adapterFor(transcript.format);
  for (const c of candidates) {
    const reason = decisions.get(c);
    if (!reason) continue;
    raws[c.item.index] = adapter.withToolOutput(c.item.raw, c.text);
    const tokens = options.tokens?.[c.item.index];
    offloaded.push({
      index: c.item.index,
      tool: c.pointer.kind === 'unknown' ? '' : c.pointer.tool,
      pointer: c.pointer,
      text: c.text,
      reason,
      originalChars: c.item.text.length,
      ...(tokens !== undefined ? { originalTokens: tokens } : {}),
    });
  }
  return { raws, offloaded };
}

/** The candidate file reads that a later candidate read makes dead weight (same key, or a later whole-file read). */
function supersededReads(candidates: readonly Candidate[]): Set<Candidate> {
  const out = new Set<Candidate>();
  const laterKeys = new Set<string>();
  const laterWhole = new Set<string>();
  for (let i = candidates.length - 1; i >= 0; i--) {
    const c = candidates[i]!;
    const key = readKey(c.pointer);
    if (key === undefined || c.pointer.kind !== 'file') continue;
    if (laterKeys.has(key) || laterWhole.has(c.pointer.path)) out.add(c);
    laterKeys.add(key);
    if (!c.pointer.range) laterWhole.add(c.pointer.path);
  }
  return out;
}
