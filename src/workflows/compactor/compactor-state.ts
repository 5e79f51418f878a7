/**
 * The embeddable compactor's state: plain JSON data the caller carries across its own continue-as-new. It holds the
 * fold memory (`prefixLen`/`prefixHash`/`output`), per-message token counts of the last context sent, the back-off
 * memory, calibration and a bounded tail of fold records. Every part is bounded: its size does not grow with the
 * length of the conversation, only with the size of the context sent.
 */
import { ApplicationFailure } from '@temporalio/workflow';
import type { Calibration } from '../../core/calibration';
import { isBackoffMemory, type BackoffMemory } from '../../core/fold/backoff';
import { parseFoldRecord, type FoldRecord } from '../../core/fold/fold-record';
import { currentFormatName, formatNamed } from '../../core/messages/format-name';
import type { MessageFormat } from '../../core/messages/types';
import { isCount, isObject } from '../../core/input/json-values';
import { COMPACTOR_FOLD_TARGET, COMPACTOR_SUMMARY_RESERVE } from './compactor-target';
import { SUMMARY_RESERVES, type SummaryReserve } from '../../core/plan/options';
import { carriedLedgerProblem, type CarriedLedger } from '../../core/fold/state-ledger/carried-check';

/**
 * Version of the compactor's data and behaviour. The compactor runs inside its host's workflow, so it never calls
 * `patched()` (that would write markers into the host's history): a change of behaviour bumps this number, and state
 * carried with an older `v` keeps the older behaviour (see docs/development.md, "Replay compatibility").
 */
export const COMPACTOR_VERSION = 1;

/** Failure type of the `ApplicationFailure` thrown for saved state that is not a compactor's. */
export const INVALID_COMPACTOR_STATE = 'InvalidCompactorState';

/** The remembered fold: the transcript's first `prefixLen` messages are sent as `output`. */
export interface FoldMemory {
  /** How many of the caller's messages the fold replaced. */
  prefixLen: number;
  /** `prefixHash` of those messages: the memory holds only while the transcript still starts with them. */
  prefixHash: string;
  /** What is sent in their place: hoisted instructions, the summary, pinned messages. */
  output: unknown[];
}

/** The last context handed out, for calibration: its length, its last message's key and its counted tokens. */
export interface LastSent {
  length: number;
  lastKey: string;
  counted: number;
}

/** Everything a compactor remembers. Plain JSON: it round-trips through `JSON.stringify`/`JSON.parse` unchanged. */
export interface CompactorState {
  /** {@link COMPACTOR_VERSION} of the compactor that wrote this state. */
  v: typeof COMPACTOR_VERSION;
  /** Format and model the counts were made for; a change of either forgets them. */
  format: MessageFormat | null;
  model: string | null;
  memory: FoldMemory | null;
  /** Token count per message content key (see `contentKey`), for the messages of the last context sent. */
  counts: Record<string, number>;
  /** Reply priming plus tool schemas, as last counted. */
  fixedTokens: number;
  backoff: BackoffMemory | null;
  calibration: Calibration | null;
  lastSent: LastSent | null;
  /** The most recent fold records, oldest first (bounded by `foldsKept`). */
  folds: FoldRecord[];
  /** Fold attempts so far, successful or not (numbers the records). */
  foldCount: number;
  lastError: { at: number; message: string } | null;
  /**
   * The state ledger of the last applied fold, bound to its summary (bounded in bytes): the next fold merges it whole
   * instead of reading it back from the summary's text. Absent or `null` (state saved before it): read from the text.
   */
  ledger?: CarriedLedger | null;
  /**
   * The default fold target this compactor resolved when its state was made (`COMPACTOR_FOLD_TARGET`); a target the
   * caller sets wins. Absent (state saved before it): the core's 0.5, so a running host keeps folding as it did.
   */
  foldTarget?: number;
  /**
   * The default summary reserve this compactor resolved when its state was made (`COMPACTOR_SUMMARY_RESERVE`); a
   * reserve the caller sets wins. Absent (state saved before it): the core's `fixed`.
   */
  summaryReserve?: SummaryReserve;
}

/** @returns the state of a compactor that has seen nothing yet. */
export function initialCompactorState(): CompactorState {
  return {
    v: COMPACTOR_VERSION,
    format: null,
    model: null,
    memory: null,
    counts: {},
    fixedTokens: 0,
    backoff: null,
    calibration: null,
    lastSent: null,
    folds: [],
    foldCount: 0,
    lastError: null,
    foldTarget: COMPACTOR_FOLD_TARGET,
    summaryReserve: COMPACTOR_SUMMARY_RESERVE,
  };
}

/**
 * Checks saved state (from the caller's continue-as-new input) before using it.
 * @returns a copy of the state, typed.
 * @throws ApplicationFailure (non-retryable, type {@link INVALID_COMPACTOR_STATE}) naming the first bad field.
 */
export function parseCompactorState(value: unknown): CompactorState {
  const bad = (field: string): never => {
    throw ApplicationFailure.create({
      message: `compactor state: '${field}' is missing or malformed`,
      type: INVALID_COMPACTOR_STATE,
      nonRetryable: true,
    });
  };
  if (!isObject(value) || value.v !== COMPACTOR_VERSION) return bad('v');
  const s = value;
  if (!(s.format === null || formatNamed(s.format))) bad('format');
  if (!(s.model === null || typeof s.model === 'string')) bad('model');
  if (!(s.memory === null || isMemory(s.memory))) bad('memory');
  if (!isObject(s.counts) || !Object.values(s.counts).every(isCount)) bad('counts');
  if (!isCount(s.fixedTokens)) bad('fixedTokens');
  if (!(s.backoff === null || isBackoffMemory(s.backoff))) bad('backoff');
  if (!(s.calibration === null || isCalibration(s.calibration))) bad('calibration');
  if (!(s.lastSent === null || isLastSent(s.lastSent))) bad('lastSent');
  if (!Array.isArray(s.folds)) bad('folds');
  let folds: FoldRecord[] = [];
  try {
    folds = (s.folds as unknown[]).map(parseFoldRecord);
  } catch {
    bad('folds');
  }
  if (!isCount(s.foldCount)) bad('foldCount');
  if (!(s.lastError === null || (isObject(s.lastError) && typeof s.lastError.message === 'string'))) bad('lastError');
  if (!(s.foldTarget === undefined || (typeof s.foldTarget === 'number' && s.foldTarget > 0 && s.foldTarget < 1))) {
    bad('foldTarget');
  }
  if (!(s.summaryReserve === undefined || SUMMARY_RESERVES.includes(s.summaryReserve as SummaryReserve))) {
    bad('summaryReserve');
  }
  const ledgerProblem = s.ledger == null ? undefined : carriedLedgerProblem(s.ledger, 'ledger');
  if (ledgerProblem) {
    throw ApplicationFailure.create({
      message: `compactor state: ${ledgerProblem}`,
      type: INVALID_COMPACTOR_STATE,
      nonRetryable: true,
    });
  }
  const state = s as unknown as CompactorState;
  // State saved before the typed format was renamed says 's0'; the memory of a format is kept across the rename.
  return { ...state, format: currentFormatName(state.format), counts: { ...state.counts }, folds };
}

function isMemory(v: unknown): v is FoldMemory {
  return (
    isObject(v) &&
    isCount(v.prefixLen) &&
    typeof v.prefixHash === 'string' &&
    /^[0-9a-f]{64}$/.test(v.prefixHash) &&
    Array.isArray(v.output)
  );
}

function isCalibration(v: unknown): boolean {
  if (!isObject(v) || typeof v.ratio !== 'number' || !isCount(v.samples)) return false;
  const a = v.anchor;
  return a === null || (isObject(a) && typeof a.estimated === 'number' && typeof a.reported === 'number');
}

function isLastSent(v: unknown): boolean {
  return isObject(v) && isCount(v.length) && typeof v.lastKey === 'string' && isCount(v.counted);
}
