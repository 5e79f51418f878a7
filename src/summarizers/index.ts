/**
 * `createSummarizer(config, deps)`: one function per fold, whatever the mode. The API key is read here, at call time,
 * and never leaves this module: errors are classified and scrubbed of it before they are thrown.
 */
import { normalize } from '../core/messages/normalize';
import { anthropicAttempt, createAnthropicClient } from './anthropic';
import { readApiKey } from './api-key';
import { chatAttempt } from './chat';
import { classifyError } from './classify-error';
import { createClient } from './client';
import { anthropicCompactAttempt } from './anthropic-compact';
import { compactAttempt } from './compact';
import { extractiveAttempt } from './extractive';
import { createGeminiClient, geminiAttempt } from './gemini';
import { responsesAttempt } from './responses';
import { summaryRequestDigest } from '../core/fold/request-digest';
import { sentInstructions, sharedSystemPrompt } from './request-input';
import type { Candidate } from './attempt-loop';
import type { AttemptInput } from './attempt-input';
import { runSummaryAttempts } from './attempt-loop';
import type {
  SummarizeContext,
  SummarizeRequest,
  Summarizer,
  SummarizerConfig,
  SummarizerMode,
  TextCounter,
} from './types';

export * from './types';
export { SummarizerCallError, SummarizerAbortedError, SummarizerConfigError, classifyError } from './classify-error';

/** Dependencies of a summarizer. */
export interface SummarizerDeps {
  /** Token counter for the request's model (sizes, validation, ledger). */
  counterFor: (model: string) => TextCounter;
  /** Environment to read `apiKeyEnv` from. @default process.env */
  env?: NodeJS.ProcessEnv;
  /** Clock for progress callbacks. @default Date.now */
  now?: () => number;
}

/** The default mode. */
export const DEFAULT_MODE: SummarizerMode = 'extractive';

/**
 * Creates a summarizer for one configuration.
 *
 * @returns a function that folds one head: resolves to a success or an "unfolded" failure (too large, incomplete, no text)
 * @throws (from the returned function) SummarizerCallError for transport and configuration errors,
 *   SummarizerAbortedError when `ctx.signal` aborted the request, TranscriptValidationError for malformed messages
 */
export function createSummarizer(config: SummarizerConfig, deps: SummarizerDeps): Summarizer {
  const mode = config.mode ?? DEFAULT_MODE;
  const summarize = async (req: SummarizeRequest, ctx: SummarizeContext = {}) => {
    const transcript = normalize(req.messages, req.format);
    const counter = deps.counterFor(req.model);
    const base = { mode, config, request: req, transcript, counter, ctx, ...(deps.now ? { now: deps.now } : {}) };
    if (mode === 'extractive') {
      return runSummaryAttempts({
        ...base,
        attempt: (n) => Promise.resolve(extractiveAttempt(config, req, transcript, counter, n)),
      });
    }
    const apiKey = readApiKey(config, deps.env, mode);
    const attempt = modelAttempt(mode, apiKey, { config, req, transcript, counter, ctx });
    return runSummaryAttempts({
      ...base,
      attempt: async (n) => {
        try {
          return await attempt(n);
        } catch (e) {
          throw classifyError(e, [apiKey], ctx.signal?.aborted === true);
        }
      },
    });
  };
  return async (req, ctx) => ({ ...(await summarize(req, ctx)), requestDigest: requestDigestOf(config, req) });
}

/**
 * The digest of the request a fold sends, mode-independent: the model asked (`extractive` offline), the instructions
 * sent after the head ('' offline and for the compaction endpoints, which take none of ours), the system prompt
 * leading it, the head. The focus of a `compactNow` is part of the instructions.
 */
function requestDigestOf(config: SummarizerConfig, req: SummarizeRequest): string {
  const mode = config.mode ?? DEFAULT_MODE;
  const modelMode = mode !== 'extractive' && mode !== 'compact' && mode !== 'anthropic-compact';
  return summaryRequestDigest({
    model: mode === 'extractive' ? 'extractive' : (config.model ?? req.model),
    instructions: modelMode ? sentInstructions(config, req) : (req.focus?.trim() ?? ''),
    system: mode === 'extractive' ? null : (sharedSystemPrompt(config, req) ?? null),
    messages: req.messages,
  });
}

function modelAttempt(
  mode: Exclude<SummarizerMode, 'extractive'>,
  apiKey: string,
  input: AttemptInput
): (n: number) => Promise<Candidate> {
  const { config } = input;
  switch (mode) {
    case 'chat':
      return () => chatAttempt(createClient(config, apiKey), input);
    case 'responses':
      return () => responsesAttempt(createClient(config, apiKey), input);
    case 'compact':
      return () => compactAttempt(createClient(config, apiKey), input);
    case 'anthropic':
      return () => anthropicAttempt(createAnthropicClient(config, apiKey), input);
    case 'anthropic-compact':
      return () => anthropicCompactAttempt(createAnthropicClient(config, apiKey), input);
    case 'gemini':
      return () => geminiAttempt(createGeminiClient(config, apiKey), input);
  }
}
