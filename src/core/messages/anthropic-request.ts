/**
 * The Messages API takes the system prompt as its `system` parameter, not as a message. A conversation holds it as a
 * leading `{role: 'system', content}` element (an instructions item: never folded, hoisted first by every fold, like
 * chat's system message); this moves it where the API wants it when the context is sent.
 */
import { isRecord } from './validate';

type TextBlock = Record<string, unknown> & { type: 'text'; text: string };

/** The request parts of an Anthropic context: `system` (absent without system elements) and the turns. */
export interface AnthropicRequestParts {
  system?: string | TextBlock[];
  messages: unknown[];
}

/**
 * Splits a context into the `system` parameter and `messages`.
 * @returns `system` as the one system element's string content, or as the text blocks of all of them (in order, each
 *   string made a block, `cache_control` kept) when there are several or any uses blocks; `messages` without them.
 */
export function anthropicRequest(context: readonly unknown[]): AnthropicRequestParts {
  const isSystem = (m: unknown): m is { content: unknown } => isRecord(m) && m.role === 'system';
  const systems = context.filter(isSystem);
  const messages = context.filter((m) => !isSystem(m));
  if (systems.length === 0) return { messages };
  if (systems.length === 1 && typeof systems[0]!.content === 'string') return { system: systems[0]!.content, messages };
  const blocks = systems.flatMap((s) =>
    typeof s.content === 'string' ? [{ type: 'text' as const, text: s.content }] : (s.content as TextBlock[])
  );
  return { system: blocks, messages };
}
