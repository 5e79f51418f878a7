import type { Item } from '../../messages/types';
import type { ResolvedOptions } from '../options';

/** What a policy sees: the items, their tokens, the safe cuts and precomputed sums. */
export interface PolicyContext {
  items: readonly Item[];
  tokens: readonly number[];
  options: ResolvedOptions;
  /** `safe[s]`: cutting before item s is safe (see safe-cut.ts). */
  safe: readonly boolean[];
  fixedTokens: number;
  /** Tokens of every instructions item (all are hoisted and kept). */
  instructionTokens: number;
  /** `tailTokens[s]`: tokens of the non-instructions items at or after s. Length n + 1. */
  tailTokens: readonly number[];
  /** `verbatimBefore[s]`: tokens of the non-instructions items the keep-verbatim selector holds before s. Length n + 1. */
  verbatimBefore: readonly number[];
  /** Index of the first non-instructions item (n when there is none): a cut must be past it to fold anything. */
  firstBody: number;
}

/** A policy's answer: a cut (made safe by the caller), or a reason not to fold. */
export type PolicyDecision =
  | {
      kind: 'cut';
      split: number;
      reason: string;
      verbatimOpener?: number;
      /** `auto` with `summaryReserve: 'carried'`: the room it set aside for the summary (`FoldPlan.carriedRoomTokens`). */
      carriedRoomTokens?: number;
    }
  | { kind: 'truncate'; split: number; reason: string }
  | { kind: 'decline'; reason: string };

/** A keep policy. Deterministic and pure. */
export type Policy = (ctx: PolicyContext) => PolicyDecision;
