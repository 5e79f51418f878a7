import type { HeadStyle, SummaryRequestInput } from '../core/fold/summary-request';
import type { Transcript } from '../core/messages/types';
import type { SummarizeRequest, SummarizerConfig } from './types';

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
  return {
    items: transcript.items,
    format: transcript.format,
    ...(req.systemPrompt && config.shareSystemPrompt !== false ? { systemPrompt: req.systemPrompt } : {}),
    style: config.headStyle ?? defaultStyle,
    ...(config.render ? { render: config.render } : {}),
    ...(config.instructions ? { extraInstructions: config.instructions } : {}),
  };
}
