/**
 * The content of a summary request: our own instructions (the state ledger's sections — task, rules and constraints,
 * decisions, facts, current state and next steps, preferences, open questions and errors, details to keep exactly —
 * then what was discussed and done), the head to fold, and optionally the agent's own system prompt in
 * front so the request shares the agent's cache prefix. The previous summary is part of the head and is merged
 * into the new one, never stacked. Reasoning items are never sent.
 */
import type { Item, MessageFormat } from '../messages/types';
import type { RenderOptions } from './render';
import { renderHead } from './render';

/**
 * The instructions that end every summary request: the state ledger's sections (so a model writes what the code-built
 * ledger checks for), then the narrative. Whatever the model still drops is appended from the ledger afterwards.
 */
export const SUMMARY_INSTRUCTIONS = [
  'Write a handover summary of the conversation so far. It will replace those messages: another assistant will',
  'continue the work from your summary and the most recent messages only. Use these sections, in this order, and',
  'leave out a section that would be empty:',
  "1. Task: the user's original request, word for word.",
  '2. Rules and constraints: every instruction from the user or from a system reminder that must keep being followed',
  '   (never / always / must / only / limits with their numbers), word for word.',
  '3. Decisions: what was decided and, where it replaced an earlier choice, what it replaced.',
  '4. Facts: names, numbers, values and settings later work needs; when a value changed, give only the current one.',
  '5. Current state and next steps: what is done, what is in progress, what should happen next.',
  '6. User preferences: how the user wants things done.',
  '7. Open questions and errors not yet resolved.',
  '8. Details to remember: file paths, URLs, ids, names, commands and error messages that later work needs.',
  '   Copy every identifier exactly as it appears; never shorten, rename or paraphrase one.',
  '9. Discussed and accomplished: what was talked about and done, one short line per distinct action, no filler.',
  'If the conversation starts with an earlier summary, merge it into these sections (keep every rule, decision and fact',
  'it lists unless a later message replaced it) instead of repeating it as a separate block. Reply with the summary',
  'only, as plain text.',
].join('\n');

/** How the head travels in the request. */
export type HeadStyle = 'rendered' | 'verbatim';

/** Inputs of the request builders. */
export interface SummaryRequestInput {
  /** The items to fold, previous summary included; instructions and reasoning items are skipped. */
  items: readonly Item[];
  /** The caller's format; `verbatim` only applies when it matches the wire format of the mode. */
  format: MessageFormat;
  /** The agent's own system prompt: leads the request so the summary call shares its cache prefix. */
  systemPrompt?: string;
  /**
   * `rendered`: one user message holding a clipped plain transcript (works with any OpenAI-compatible server).
   * `verbatim`: the caller's own elements followed by the instructions (needs a matching format).
   * @default 'rendered'
   */
  style?: HeadStyle;
  /** Clip lengths for the rendered style. */
  render?: RenderOptions;
  /** Extra instructions (the conversation's `summarizer.instructions`), after ours. @default none */
  extraInstructions?: string;
}

/** A Chat Completions message as sent. */
export type ChatRequestMessage = Record<string, unknown> & { role: string };

/** A Responses request body fragment: optional instructions and the input items. */
export interface ResponsesRequestContent {
  instructions?: string;
  input: Record<string, unknown>[];
}

const sendable = (item: Item): boolean => item.role !== 'reasoning' && item.role !== 'instructions';

/** @returns our instructions, followed by the caller's extra ones when there are any. */
export function summaryInstructions(extra?: string): string {
  return extra ? `${SUMMARY_INSTRUCTIONS}\n\nAdditional instructions:\n${extra}` : SUMMARY_INSTRUCTIONS;
}

/**
 * The single user message of the rendered style.
 *
 * @returns the instructions followed by the transcript in tags
 */
export function renderedRequestText(items: readonly Item[], render?: RenderOptions, extra?: string): string {
  const transcript = renderHead(items.filter(sendable), render);
  return [
    'Below is the earlier part of a conversation between a user and an assistant that uses tools.',
    '',
    '<conversation>',
    transcript,
    '</conversation>',
    '',
    summaryInstructions(extra),
  ].join('\n');
}

/** A summary request as a system text and one user text: the form of the Anthropic and Gemini requests. */
export interface RenderedRequest {
  /** The agent's system prompt, when it leads the request. */
  system?: string;
  /** The one user turn: the rendered head and the instructions. */
  text: string;
}

/**
 * The rendered summary request, for APIs that take the system prompt apart from the messages.
 *
 * @returns the agent's system prompt (if any) and the user text of {@link renderedRequestText}
 */
export function buildRenderedRequest(input: SummaryRequestInput): RenderedRequest {
  return {
    ...(input.systemPrompt ? { system: input.systemPrompt } : {}),
    text: renderedRequestText(input.items, input.render, input.extraInstructions),
  };
}

/**
 * The messages of a `chat.completions.create` summary request.
 *
 * @returns system prompt (if any), then the head (verbatim or rendered), then the instructions
 */
export function buildChatRequest(input: SummaryRequestInput): ChatRequestMessage[] {
  const lead: ChatRequestMessage[] = input.systemPrompt ? [{ role: 'system', content: input.systemPrompt }] : [];
  if ((input.style ?? 'rendered') === 'verbatim' && input.format === 'chat') {
    const raws = input.items.filter(sendable).map((i) => i.raw as ChatRequestMessage);
    return [...lead, ...raws, { role: 'user', content: summaryInstructions(input.extraInstructions) }];
  }
  const rendered = buildRenderedRequest(input);
  return [...lead, { role: 'user', content: rendered.text }];
}

/**
 * The instructions and input items of a `responses.create` summary request.
 *
 * @returns `instructions` = the agent's system prompt (if any); `input` = the head then the summary instructions
 */
export function buildResponsesRequest(input: SummaryRequestInput): ResponsesRequestContent {
  const instructions = input.systemPrompt ? { instructions: input.systemPrompt } : {};
  if ((input.style ?? 'rendered') === 'verbatim' && input.format === 'responses') {
    const raws = input.items.filter(sendable).map((i) => i.raw as Record<string, unknown>);
    return { ...instructions, input: [...raws, userItem(summaryInstructions(input.extraInstructions))] };
  }
  return {
    ...instructions,
    input: [userItem(renderedRequestText(input.items, input.render, input.extraInstructions))],
  };
}

function userItem(text: string): Record<string, unknown> {
  return { type: 'message', role: 'user', content: text };
}
