import { summaryInstructions, type HeadStyle, type SummaryRequestInput } from '../core/fold/summary-request';
import type { Transcript } from '../core/messages/types';
import type { SummarizeRequest, SummarizerConfig } from './types';

/**
 * The extra instructions of one fold: the profile's (and the conversation's) `instructions`, then the caller's focus
 * of a `compactNow`.
 * @returns the text appended after our instructions; `undefined` when there is none.
 */
export function extraInstructions(config: SummarizerConfig, req: SummarizeRequest): string | undefined {
  const focus = req.focus?.trim();
  const parts = [
    ...(config.instructions ? [config.instructions] : []),
    ...(focus ? [`Focus of this summary (asked for by the user): ${focus}`] : []),
  ];
  return parts.length > 0 ? parts.join('\n') : undefined;
}

/** @returns the agent's system prompt when it leads this fold's request (the profile may turn sharing off). */
export function sharedSystemPrompt(config: SummarizerConfig, req: SummarizeRequest): string | undefined {
  return req.systemPrompt && config.shareSystemPrompt !== false ? req.systemPrompt : undefined;
}

/**
 * The instructions a model mode sends after the head, extra ones included.
 * @returns our instructions followed by {@link extraInstructions}.
 */
export function sentInstructions(config: SummarizerConfig, req: SummarizeRequest): string {
  return summaryInstructions(extraInstructions(config, req));
}

/**
 * What the summary-request builders get for one fold, shared by the `chat` and `responses` modes.
 * @param defaultStyle how the head travels when `config.headStyle` is not set.
 * @returns the builder input: the head's items, the agent's system prompt when it may lead (so the request shares the agent's prompt-cache prefix), the
 *   head style and the render clips.
 */
export function requestInput(
  config: SummarizerConfig,
  req: SummarizeRequest,
  transcript: Transcript,
  defaultStyle: HeadStyle
): SummaryRequestInput {
  const system = sharedSystemPrompt(config, req);
  const extra = extraInstructions(config, req);
  return {
    items: transcript.items,
    format: transcript.format,
    ...(system ? { systemPrompt: system } : {}),
    style: config.headStyle ?? defaultStyle,
    ...(config.render ? { render: config.render } : {}),
    ...(extra ? { extraInstructions: extra } : {}),
  };
}
