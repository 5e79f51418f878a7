/** Size limits derived from the conversation budget and the config. */
import type { SummarizerConfig } from './types';

/** The cap on a summary call's output. */
export const SUMMARY_MAX_OUTPUT_TOKENS = 8192;

/**
 * The output-token limit of a summary call: `config.maxOutputTokens` when positive; a negative value sends none;
 * unset or 0 means `min(floor(budget / 2), 8192)`, and none when that is 0 (a budget of 1). A profile's
 * `outputTokensCap` bounds whichever applies.
 *
 * @returns the limit, or `undefined` to send none
 */
export function maxOutputTokens(config: SummarizerConfig, budget: number): number | undefined {
  const configured = config.maxOutputTokens ?? 0;
  const cap = config.outputTokensCap && config.outputTokensCap > 0 ? config.outputTokensCap : Infinity;
  if (configured < 0) return Number.isFinite(cap) ? cap : undefined;
  const n = Math.min(configured > 0 ? configured : Math.min(Math.floor(budget / 2), SUMMARY_MAX_OUTPUT_TOKENS), cap);
  return n > 0 ? n : undefined;
}

/** The identifier ledger's default cap as a share of the tokens the fold takes in (see {@link ledgerCap}). */
export const LEDGER_FOLDED_SHARE = 0.04;

/**
 * The identifier ledger's cap: `config.ledger.maxTokens`, or `min(1200, floor(budget / 20))` and at most 4% of the
 * tokens the fold takes in (a small fold gets a small list); never more than the room left between the summary and
 * what it folds (so the ledger cannot make a valid summary too large).
 *
 * @returns the cap in tokens (0 disables)
 */
export function ledgerCap(config: SummarizerConfig, budget: number, headroom: number, foldedTokens = Infinity): number {
  if (config.ledger?.enabled === false) return 0;
  const cap =
    config.ledger?.maxTokens ?? Math.min(1200, Math.floor(budget / 20), Math.floor(LEDGER_FOLDED_SHARE * foldedTokens));
  return Math.max(0, Math.min(cap, headroom));
}

/** Tokens of a summary message beyond its text: the marker line and the message's own overhead. */
export const SUMMARY_WRAP_TOKENS = 24;

/**
 * The room the budget leaves a summary beside what the fold keeps (`keptTokens`: instructions, pinned items, the
 * tail, tool definitions, reply priming): `budget − keptTokens − SUMMARY_WRAP_TOKENS`, at least 0.
 *
 * @returns the room in tokens; `Infinity` when `keptTokens` is not given
 */
export function budgetRoom(budget: number, keptTokens: number | undefined): number {
  return keptTokens === undefined ? Infinity : Math.max(0, budget - keptTokens - SUMMARY_WRAP_TOKENS);
}

/** The extractive summary's hard cap as a share of the budget (see {@link summaryCap}). */
export const SUMMARY_BUDGET_SHARE = 0.4;

/**
 * The hard cap of an extractive summary (task, state ledger and narrative): 40% of the budget (so with the identifier
 * ledger, at most a twentieth, it stays inside the output limit of half the budget), at most 8192, and smaller than
 * what the fold replaces. Only a ledger that needs it fills it: the narrative and what tools showed stop at the
 * summary's usual size ({@link digestCap}), so the room past that goes to rules, goals, decisions, facts and
 * preferences before any of them is shortened. It is never below 1.
 *
 * @returns the cap in tokens
 */
export function summaryCap(budget: number, foldedTokens: number): number {
  return Math.max(1, Math.min(Math.floor(budget * SUMMARY_BUDGET_SHARE), SUMMARY_MAX_OUTPUT_TOKENS, foldedTokens - 2));
}

/** The extractive summary's usual size as a share of the tokens it folds (see {@link digestCap}). */
export const DIGEST_FOLDED_SHARE = 0.1;

/**
 * The extractive summary's usual size, which the narrative fills up to after the task and ledger:
 * `config.extractive.maxTokens` or `min(2000, floor(budget / 10))`, and never more than a tenth of the tokens the fold
 * takes in (`foldedTokens`), so that a small fold is not summarised at the size of a large one: a fold lands near half
 * the budget, so without this share a first fold's summary would be a fifth of what it replaces.
 *
 * @returns the cap in tokens
 */
export function digestCap(config: SummarizerConfig, budget: number, foldedTokens = Infinity): number {
  const usual = config.extractive?.maxTokens ?? Math.min(2000, Math.floor(budget / 10));
  return Math.max(1, Math.min(usual, Math.floor(DIGEST_FOLDED_SHARE * foldedTokens)));
}

/**
 * The room for state-ledger entries a model's summary left out: `config.ledger.maxTokens` or
 * `min(4096, floor(budget / 8))`, never more than the room left between the summary and what it folds.
 *
 * @returns the cap in tokens (0 when the ledger is disabled)
 */
export function stateLedgerCap(config: SummarizerConfig, budget: number, headroom: number): number {
  if (config.ledger?.enabled === false) return 0;
  const cap = config.ledger?.maxTokens ?? Math.min(4096, Math.floor(budget / 8));
  return Math.max(0, Math.min(cap, headroom));
}

/**
 * The output limit of an API that requires one (Anthropic's `max_tokens`): {@link maxOutputTokens}, or
 * `min(floor(budget / 2), 8192)` (at least 1) where that would send none, plus the thinking budget, which counts
 * against the same limit.
 *
 * @returns the limit in tokens (≥ 1)
 */
export function requiredOutputTokens(config: SummarizerConfig, budget: number): number {
  const limit =
    maxOutputTokens(config, budget) ?? Math.max(1, Math.min(Math.floor(budget / 2), SUMMARY_MAX_OUTPUT_TOKENS));
  return limit + thinkingBudget(config);
}

/** @returns the configured thinking budget in tokens (0 = thinking off) */
export function thinkingBudget(config: SummarizerConfig): number {
  const n = config.thinkingBudget ?? 0;
  return Number.isInteger(n) && n > 0 ? n : 0;
}
