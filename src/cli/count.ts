import { normalize } from '../core/messages/normalize';
import type { MessageFormat } from '../core/messages/types';
import { TranscriptValidationError } from '../core/messages/validate';
import { createTokenCounter } from '../tokens';
import { TokenInputError } from '../tokens/errors';
import { FORMAT_TOOLS_FLAGS, formatFlag, toolsFlag } from './format-tools-flags';
import { CliUsageError, parseFlags, readJsonArray, type CliIO } from './io';

/**
 * `durable-compaction count --model M [--format F] [--tools FILE] FILE`: counts a transcript (a JSON array; `-` reads
 * stdin) and prints one JSON line `{"total": N, "messages": [n, …]}` (and `"tools": n` with `--tools`), where each n
 * includes the message's wire overhead and total = sum + reply priming + tools. The format is detected unless `--format` is given.
 * @returns 0.
 * @throws CliUsageError (exit 2) on a missing model, an unknown format, or a file that is not a valid transcript.
 */
export async function runCount(args: string[], io: CliIO): Promise<number> {
  const { flags, positional } = parseFlags(args, ['model', ...FORMAT_TOOLS_FLAGS]);
  const model = flags.get('model');
  if (model === undefined) throw new CliUsageError('missing --model M (the model whose vocabulary to count with)');
  const forced = formatFlag(flags);
  const toolDefs = toolsFlag(flags);
  if (positional.length > 1) throw new CliUsageError(`expected one FILE, got ${positional.length}`);
  const raws = readJsonArray(positional[0]);
  let format: MessageFormat;
  try {
    format = normalize(raws, forced).format;
  } catch (err) {
    if (err instanceof TranscriptValidationError) throw new CliUsageError(err.message);
    throw err;
  }
  const counter = createTokenCounter({ model });
  let messages: number[];
  let tools: number;
  try {
    messages = counter.countMessages(raws, format);
    tools = counter.countTools(toolDefs);
  } catch (err) {
    if (err instanceof TokenInputError) throw new CliUsageError(err.message);
    throw err;
  }
  const total = messages.reduce((a, b) => a + b, 0) + counter.replyPriming + tools;
  io.stdout(JSON.stringify(toolDefs.length > 0 ? { total, messages, tools } : { total, messages }));
  return Promise.resolve(0);
}
