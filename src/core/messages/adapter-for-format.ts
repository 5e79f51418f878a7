import type { FormatAdapter } from './format-adapter';
import { chatAdapter } from './chat';
import { responsesAdapter } from './responses';
import { typedMessagesAdapter } from './typed-messages';
import type { MessageFormat } from './types';

const ADAPTERS: Record<MessageFormat, FormatAdapter> = {
  chat: chatAdapter,
  responses: responsesAdapter,
  s0: typedMessagesAdapter,
};

/**
 * The adapter of a format.
 * @throws RangeError for a value that is not a MessageFormat (input from JSON or a CLI flag).
 */
export function adapterFor(format: MessageFormat): FormatAdapter {
  const adapter = ADAPTERS[format];
  if (!adapter) throw new RangeError(`unknown message format '${String(format)}' (known: chat, responses, s0)`);
  return adapter;
}
