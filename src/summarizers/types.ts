/**
 * Shared types of the summarizers: configuration (non-secret, plain JSON), the request, the result and the per-call
 * context (abort signal, heartbeat, progress callbacks).
 */
import type { HeadStyle } from '../core/fold/summary-request';
import type { RenderOptions } from '../core/fold/render';
import type { Retention } from '../core/fold/identifier-ledger';
import type { CarriedLedger } from '../core/fold/state-ledger';
import type { SummaryErrorKind } from '../core/fold/validate-summary';
import type { MessageFormat, Usage } from '../core/messages/types';
import type { RequestFields } from './request-fields';

/**
 * The summarizer modes. `extractive` needs no network and is the default; `chat`, `responses` and `compact` call an
 * OpenAI-compatible API, `anthropic` and `anthropic-compact` the Anthropic Messages API, `gemini` the Gemini API.
 */
export type SummarizerMode =
  'extractive' | 'chat' | 'responses' | 'compact' | 'anthropic' | 'anthropic-compact' | 'gemini';

/** Options of the extractive digest, in tokens. */
export interface ExtractiveOptions {
  /**
   * The size the narrative (assistant notes, tool actions) fills the summary up to, task and ledger included; a larger
   * ledger goes up to the hard cap `min(budget / 4, 8192)` and leaves no narrative. @default min(2000, floor(budget / 10)), at most 10% of the folded tokens
   */
  maxTokens?: number;
  /** Cap on the task (the first user request) kept verbatim before it is clipped. @default 40% of `maxTokens` */
  userTokens?: number;
  /** Clip of one tool action's key argument, in characters. @default 120 */
  actionArgClip?: number;
}

/** Options of the identifier ledger. */
export interface LedgerConfig {
  /** Append the identifiers a summary dropped. @default true */
  enabled?: boolean;
  /** Cap on the appended section. @default min(1200, floor(budget / 20)), and never past the fold's headroom */
  maxTokens?: number;
}

/**
 * Summarizer configuration: plain JSON, no secrets. The API key is named (`apiKeyEnv`, `apiKeyFile`), never carried.
 * Only the worker builds one (from a profile of its own configuration): callers pick a profile by name.
 */
export interface SummarizerConfig {
  /** @default 'extractive' */
  mode?: SummarizerMode;
  /** Model for the summary call. @default the request's model */
  model?: string;
  /**
   * The provider's base URL: OpenAI-compatible for the OpenAI modes (OpenAI, Azure OpenAI, vLLM, Ollama, LM Studio),
   * the Anthropic or Gemini API (or a gateway speaking it) for theirs. @default the SDK's own (the provider's API)
   */
  baseURL?: string;
  /**
   * Environment variable holding the API key.
   * @default 'OPENAI_API_KEY'; 'ANTHROPIC_API_KEY' for `anthropic` and `anthropic-compact`; 'GEMINI_API_KEY' for `gemini`
   */
  apiKeyEnv?: string;
  /** File holding the API key (read at call time, trimmed); wins over `apiKeyEnv` when set. */
  apiKeyFile?: string;
  /** Per-request timeout of the client, ms. @default 120000 */
  timeoutMs?: number;
  /** Max output tokens of a summary call; 0 = the default, negative = send none. @default min(floor(budget / 2), 8192) */
  maxOutputTokens?: number;
  /** Upper bound on the output limit, whatever `maxOutputTokens` asks (a profile's cap). @default none */
  outputTokensCap?: number;
  /**
   * `anthropic` and `gemini`: tokens the model may think before it writes the summary; 0 = thinking off (Anthropic:
   * no `thinking` field; Gemini: `thinkingBudget: 0`). The output limit is raised by this much. @default 0
   */
  thinkingBudget?: number;
  /** Extra instructions appended to the summary request (the model modes; `extractive` and `compact` ignore them). */
  instructions?: string;
  /** Field carrying the chat output limit. @default 'max_completion_tokens' for api.openai.com, else 'max_tokens' */
  maxTokensField?: 'max_tokens' | 'max_completion_tokens';
  /** How the head travels. @default 'rendered' for chat, 'verbatim' for responses */
  headStyle?: HeadStyle;
  /** Clip lengths of the rendered head. */
  render?: RenderOptions;
  /** Lead the summary request with the agent's system prompt (so the request shares the agent's prompt-cache prefix). @default true */
  shareSystemPrompt?: boolean;
  ledger?: LedgerConfig;
  extractive?: ExtractiveOptions;
  /** Sampling and reasoning fields sent with each summary call, per mode (`request-fields.ts`). @default none */
  request?: RequestFields;
}

/** One fold's summary request. */
export interface SummarizeRequest {
  /** The caller's format of `messages`. */
  format: MessageFormat;
  /** The head to fold, in the caller's format; a previous summary in it is folded into the new one. */
  messages: unknown[];
  /** The conversation's token budget (sizes the output limit, digest and ledger). */
  budget: number;
  /** The conversation's model (default summary model, tokenizer choice). */
  model: string;
  /** Tokens of `messages`: a summary must come out smaller. */
  foldedTokens: number;
  /**
   * Tokens the folded context keeps beside the summary (instructions, pinned items, the tail, tool definitions, reply
   * priming): the extractive summary and the identifier ledger fit what the budget leaves, the must-keep part
   * excepted. @default unknown (the summary is sized by the budget alone)
   */
  keptTokens?: number;
  /**
   * The room the fold's plan set aside for the summary, what earlier summaries carry included: the extractive summary
   * keeps their entries within it (`summaryReserve: 'carried'`). @default the summary's usual share for them
   */
  carriedRoomTokens?: number;
  /** The agent's own system prompt, to lead the request (a shared prompt-cache prefix). */
  systemPrompt?: string;
  /** Archive sequence number of each message of `messages` (`null`: not archived), for the ledger's pointers. */
  seqs?: (number | null)[];
  /**
   * What this fold should keep above all (`compactNow({ focus })`): the model modes append it to the instructions;
   * the extractive digest lists the narrative lines that mention its words first.
   */
  focus?: string;
  /**
   * The state ledger the caller carried from its last fold (the `carry` of its result): merged whole in place of the
   * ledger printed in that fold's summary, when the summary is in `messages` unchanged. @default read from the summary
   */
  ledger?: CarriedLedger;
}

/** Progress of one fold, for "folding since T". Times are epoch ms. */
export interface SummarizeProgress {
  mode: SummarizerMode;
  attempt: number;
  startedAt: number;
}

/** Per-call context. */
export interface SummarizeContext {
  /** Aborts the model request (activity cancellation). */
  signal?: AbortSignal;
  /** Called while waiting on a model call (the activity heartbeats). */
  heartbeat?: () => void;
  /** Called before each attempt's blocking call (progress). */
  onStart?: (progress: SummarizeProgress) => void;
  /** Called once with the outcome (completion). */
  onComplete?: (result: SummarizeResult) => void;
}

/** What all outcomes record. */
export interface SummarizeRecord {
  mode: SummarizerMode;
  /** Model calls made (1 or 2; the extractive digest counts as a call). */
  attempts: number;
  /** Provider usage summed over attempts; absent when no call reported usage. */
  usage?: Usage;
  /** The last response's id. */
  responseId?: string;
  /** The last response's output item types (`message`, `function_call`, `compaction`, …). */
  outputTypes: string[];
  /** Why earlier attempts were rejected, in order. */
  rejected: SummaryErrorKind[];
  /** `summaryRequestDigest` of the request (model, instructions, system prompt, messages), set by `createSummarizer`. */
  requestDigest?: string;
}

/** A summary to apply. */
export interface SummarizeSuccess extends SummarizeRecord {
  ok: true;
  /** The summary text, ledger included (absent for `compact`). */
  text?: string;
  /** `compact` only: the returned output items (user messages as returned, then the opaque compaction item). */
  items?: unknown[];
  /** Estimated tokens the summary adds (text, or the returned items). */
  summaryTokens: number;
  /** Identifier retention of the final summary (for `compact`, of its readable items only). */
  retention: Retention;
  /** Retention of the summarizer's own text, before the state and identifier ledgers were applied. */
  retentionBefore: Retention;
  /** Identifiers appended by the ledger, and those that did not fit. */
  ledger: { appended: number; omitted: number };
  /** Model modes: state-ledger entries (rules, decisions, facts, …) the model left out and code appended. */
  stateLedger?: { appended: number };
  /**
   * The merged state ledger of this fold, every entry whole, bound to `text`: a caller that keeps state passes it
   * back as the next request's `ledger` (absent for `compact`, whose summary is opaque).
   */
  carry?: CarriedLedger;
}

/** A fold that failed "unfolded": the transcript is sent as it was. */
export interface SummarizeFailure extends SummarizeRecord {
  ok: false;
  kind: SummaryErrorKind;
  message: string;
}

/** The outcome of one fold. */
export type SummarizeResult = SummarizeSuccess | SummarizeFailure;

/** A summarizer: one fold per call. Transport errors throw {@link SummarizerCallError}. */
export type Summarizer = (req: SummarizeRequest, ctx?: SummarizeContext) => Promise<SummarizeResult>;

/** The token measure the summarizers need (structurally a subset of `src/tokens` `TokenCounter`). */
export interface TextCounter {
  countText(text: string): number;
  countMessages(raws: unknown[], format: MessageFormat): number[];
}
