/**
 * The message model every layer shares. A caller's transcript (OpenAI Chat Completions messages, OpenAI Responses
 * input items, or typed messages (format `'typed'`)) is normalised into one {@link Item} per input element, one-to-one and in order, so
 * indices into `Transcript.items` are indices into the caller's own array. The original element is kept untouched
 * in `raw`: denormalising is returning the raws, which makes normalise → denormalise the identity.
 */

/**
 * The wire formats accepted. `chat` = OpenAI Chat Completions, `responses` = OpenAI Responses input items,
 * `typed` = typed messages `{id?, type, text, payload?, meta?}` (formerly named `'s0'`, see `format-name.ts`),
 * `anthropic` = Anthropic Messages API messages (content blocks; see `anthropic.ts` and docs/protocol.md),
 * `gemini` = Gemini `contents` (see `gemini.ts`), `ai-sdk` = Vercel AI SDK `ModelMessage`s (see `ai-sdk.ts`).
 */
export type MessageFormat = 'chat' | 'responses' | 'typed' | 'anthropic' | 'gemini' | 'ai-sdk';

/**
 * What an item is to the planner.
 * - `instructions`: system / developer / typed-message `instructions`; never summarised, hoisted to the front.
 * - `summary`: a summary this engine (or the compaction endpoint) produced earlier; folded into the next one.
 * - `tool`: a tool result (chat `tool`, Responses `function_call_output` and friends).
 * - `activity`: typed-message `activity`, a tool action and its outcome in one message.
 * - `other`: an item type we do not know; preserved, priced, never split from its neighbours' pairs.
 */
export type ItemRole = 'instructions' | 'user' | 'assistant' | 'tool' | 'reasoning' | 'activity' | 'summary' | 'other';

/** A tool call made by an item: its id as sent by the model, the tool's name and its JSON argument string. */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
  /**
   * The element type that made the call where a format has several (Responses `function_call`,
   * `custom_tool_call`, …), so a synthetic result can be written in the matching `*_output` type. Absent in chat.
   */
  kind?: string;
}

/** Where the call a tool result answers is: its id, the calling item and the call's position in it, the tool name. */
export interface Answer {
  callId: string;
  itemIndex: number;
  callIndex: number;
  name: string;
}

/** One element of the caller's transcript, as the planner sees it. */
export interface Item<Raw = unknown> {
  /** Position in the caller's array. */
  index: number;
  role: ItemRole;
  /** True when this is the start of a real user turn (a user message that is not only tool results). */
  turnStart: boolean;
  /** Tool calls this item makes (chat assistant `tool_calls`; a Responses `function_call` makes exactly one). */
  calls: ToolCall[];
  /**
   * For a tool result: the call it answers, paired by position and id (the nearest earlier unanswered call with that
   * id), never by id alone, because real sessions reuse ids.
   */
  answers?: Answer;
  /** For a tool result: the call id it carries as written (set by the adapter; `normalize` pairs it into `answers`). */
  resultFor?: string;
  /**
   * For an element answering several calls (an Anthropic user turn holding several `tool_result` blocks, a Gemini
   * turn of `functionResponse` parts, an AI SDK `tool` message): the call ids after the first (which is `resultFor`),
   * in order. Pairing puts their calls in `moreAnswers`. Adapters set both with `resultIdFields` (`pair.ts`).
   */
  moreResultsFor?: string[];
  /** The calls answered by `moreResultsFor`, as `answers` is for `resultFor` (see `answersOf` in `pair.ts`). */
  moreAnswers?: Answer[];
  /**
   * True when the kept part of a fold may not start at this item: the format requires the element after the summary
   * to be of another kind (Anthropic: the kept part starts with a user turn, never an assistant turn).
   */
  noCutBefore?: boolean;
  /** Human-readable text of the item (prose, tool output, reasoning summary) for rendering and identifier mining. */
  text: string;
  /** The item's own id where the format has one (typed-message `id`, Responses item `id`). */
  id?: string;
  /** The caller's element, untouched. */
  raw: Raw;
}

/** A normalised transcript: the detected format and one item per input element. */
export interface Transcript<Raw = unknown> {
  format: MessageFormat;
  items: Item<Raw>[];
}

/** Provider-reported token usage of one model call; fields absent when the provider did not report them. */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  cachedInputTokens?: number;
  reasoningTokens?: number;
}
