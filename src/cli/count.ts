import { normalize } from '../core/messages/normalize';
import { formatNamed, MESSAGE_FORMATS } from '../core/messages/format-name';
import type { MessageFormat } from '../core/messages/types';
import { TranscriptValidationError } from '../core/messages/validate';
import { createTokenCounter } from '../tokens';
import { TokenInputError } from '../tokens/errors';
import { CliUsageError, parseFlags, readJsonArray, type CliIO } from './io';

/**
 * `durable-compaction count --model M [--format F] FILE`: counts a transcript (a JSON array; `-` reads stdin) and
 * prints one JSON line `{"total": N, "messages": [n, …]}`, where each n includes the message's wire overhead and
 * total = sum + reply priming. The format is detected unless `--format` is given.
 * @returns 0.
 * @throws CliUsageError (exit 2) on a missing model, an unknown format, or a file that is not a valid transcript.
 */
export async function runCount(args: string[], io: CliIO): Promise<number> {
  const { flags, positional } = parseFlags(args, ['model', 'format']);
  const model = flags.get('model');
  if (model === undefined) throw new CliUsageError('missing --model M (the model whose vocabulary to count with)');
  const forced = flags.get('format');
  if (forced !== undefined && !formatNamed(forced)) {
    throw new CliUsageError(`unknown --format '${forced}' (known: ${MESSAGE_FORMATS.join(', ')})`);
  }
  if (positional.length > 1) throw new CliUsageError(`expected one FILE, got ${positional.length}`);
  const raws = readJsonArray(positional[0]);
  let format: MessageFormat;
  try {
    format = normalize(raws, formatNamed(forced)).format;
  } catch (err) {
    if (err instanceof TranscriptValidationError) throw new CliUsageError(err.message);
    throw err;
  }
  const counter = createTokenCounter({ model });
  let messages: number[];
  try {
    messages = counter.countMessages(raws, format);
  } catch (err) {
    if (err instanceof TokenInputError) throw new CliUsageError(err.message);
    throw err;
  }
  const total = messages.reduce((a, b) => a + b, 0) + counter.replyPriming;
  io.stdout(JSON.stringify({ total, messages }));
  return Promise.resolve(0);
}
