/**
 * `extractive` mode, the offline default: the digest is written by code (no network, deterministic). A digest that is
 * not smaller than what it folds is rebuilt once at half the cap, then the fold fails unfolded.
 */
import type { Transcript } from '../core/messages/types';
import { buildDigest } from './extractive/digest';
import { digestCap } from './limits';
import type { Candidate } from './run-fold';
import type { SummarizeRequest, SummarizerConfig, TextCounter } from './types';

/**
 * Makes one extractive attempt; attempt 2 halves the cap.
 *
 * @returns the candidate (no usage, no response id; output type `extractive`)
 */
export function extractiveAttempt(
  config: SummarizerConfig,
  req: SummarizeRequest,
  transcript: Transcript,
  counter: TextCounter,
  attempt: number
): Candidate {
  const cap = Math.max(1, Math.floor(digestCap(config, req.budget) / (attempt > 1 ? 2 : 1)));
  const text = buildDigest(transcript.items, {
    maxTokens: cap,
    ...(config.extractive?.userTokens !== undefined
      ? { userTokens: Math.floor(config.extractive.userTokens / (attempt > 1 ? 2 : 1)) }
      : {}),
    ...(config.extractive?.actionArgClip !== undefined ? { actionArgClip: config.extractive.actionArgClip } : {}),
    count: (s) => counter.countText(s),
  });
  return { text, outputTypes: ['extractive'] };
}
