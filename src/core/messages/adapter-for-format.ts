import type { FormatAdapter } from './format-adapter';
import { aiSdkAdapter } from './ai-sdk';
import { anthropicAdapter } from './anthropic';
import { chatAdapter } from './chat';
import { geminiAdapter } from './gemini';
import { responsesAdapter } from './responses';
import { typedMessagesAdapter } from './typed-messages';
import { formatNamed, MESSAGE_FORMATS } from './format-name';
import type { MessageFormat } from './types';

const ADAPTERS: Record<MessageFormat, FormatAdapter> = {
  chat: chatAdapter,
  responses: responsesAdapter,
  typed: typedMessagesAdapter,
  anthropic: anthropicAdapter,
  gemini: geminiAdapter,
  'ai-sdk': aiSdkAdapter,
};

/**
 * The adapter of a format, given by any of its names (an activity scheduled before the rename still says `'s0'`).
 * @throws RangeError for a value that names no format (input from JSON or a CLI flag).
 */
export function adapterFor(format: MessageFormat): FormatAdapter {
  const named = formatNamed(format);
  if (!named) {
    throw new RangeError(`unknown message format '${String(format)}' (known: ${MESSAGE_FORMATS.join(', ')})`);
  }
  return ADAPTERS[named];
}
