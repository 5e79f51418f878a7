/**
 * `anthropic-compact` mode: Anthropic's server-side compaction. One beta `messages.create` call with the top-level
 * `compaction: {type: 'summarize'}` parameter (beta `compact-2026-09-04`) summarises the whole head; the response
 * holds one signed `compaction` block, which becomes the folded part as a user turn holding that block alone, kept as
 * returned (the API checks its signature and opaque `encrypted_content`). Only an Anthropic transcript can hold it.
 */
import type Anthropic from '@anthropic-ai/sdk';
import { INCOMPLETE, anthropicUsage } from './anthropic';
import { requireFormat } from './require-format';
import type { Candidate } from './attempt-loop';
import type { AttemptInput } from './attempt-input';
import { measureItems } from './compact';
import { requiredOutputTokens } from './limits';

/** The beta that enables the `compaction` request parameter. */
export const COMPACTION_BETA = 'compact-2026-09-04';

/** The output type reported for a `compaction` block with no summary (the API's failed compaction). */
const FAILED = 'compaction_failed';

/**
 * Makes one compaction attempt.
 *
 * @returns the candidate: `items` = one user turn holding the returned block, `text` = the block's readable summary
 * @throws SummarizerConfigError when the transcript is not in the Anthropic format; the SDK's errors otherwise
 */
export async function anthropicCompactAttempt(
  client: Anthropic,
  { config, req, transcript, counter, ctx }: AttemptInput
): Promise<Candidate> {
  requireFormat(
    transcript,
    'anthropic',
    'anthropic-compact mode needs an Anthropic transcript',
    'its compaction block'
  );
  const system = req.systemPrompt && config.shareSystemPrompt !== false ? req.systemPrompt : undefined;
  // The profile's extra instructions are not sent: the API's `instructions` would replace its own prompt, not add.
  const body = {
    model: config.model ?? req.model,
    max_tokens: requiredOutputTokens(config, req.budget),
    ...(system ? { system } : {}),
    messages: transcript.items.filter((i) => i.role !== 'instructions').map((i) => i.raw),
    compaction: { type: 'summarize' },
    betas: [COMPACTION_BETA],
  } as unknown as Anthropic.Beta.Messages.MessageCreateParamsNonStreaming;
  const res = await client.beta.messages.create(body, ctx.signal ? { signal: ctx.signal } : {});
  const blocks = (res.content ?? []) as unknown as Record<string, unknown>[];
  // A block whose `content` is null is a failed compaction (the API's own words): it is never spliced in.
  const block = blocks.find((b) => b.type === 'compaction' && typeof b.content === 'string' && b.content !== '');
  const items = block ? [{ role: 'user', content: [block] }] : [];
  const usage = anthropicUsage(res.usage);
  const stop = res.stop_reason ?? '';
  return {
    text: block ? (block.content as string) : '',
    items,
    summaryTokens: measureItems(items, counter, 'anthropic'),
    ...(INCOMPLETE.has(stop) ? { incompleteReason: stop } : {}),
    ...(usage ? { usage } : {}),
    ...(res.id ? { responseId: res.id } : {}),
    outputTypes: blocks.map((b) =>
      b === block ? 'compaction' : b.type === 'compaction' ? FAILED : typeof b.type === 'string' ? b.type : 'unknown'
    ),
  };
}
