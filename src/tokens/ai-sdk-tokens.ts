/**
 * Pricing of Vercel AI SDK model messages. The SDK talks to any provider, so media are priced by the OpenAI rules
 * (`media-tokens.ts`); text, reasoning, tool inputs and outputs by their text.
 */
import { isObj, json, type Obj } from './json-values';
import { imageTokens } from './media-tokens';
import { imageSizeFromDataUrl } from './image-size';
import { FILE_TOKENS, TOKENS_PER_MESSAGE } from './wire-constants';

/** An image's dimensions when its data is a data URL or base64 string with a media type. */
function sizeOf(image: unknown, mediaType: unknown): { width: number; height: number } | undefined {
  if (typeof image !== 'string') return undefined;
  if (image.startsWith('data:')) return imageSizeFromDataUrl(image);
  const type = typeof mediaType === 'string' ? mediaType : 'image/png';
  return /^[A-Za-z0-9+/=]+$/.test(image.slice(0, 64))
    ? imageSizeFromDataUrl(`data:${type};base64,${image}`)
    : undefined;
}

/** Tokens of a tool result's output: its text, its JSON, or its content items. */
function priceOutput(output: unknown, count: (text: string) => number): number {
  if (!isObj(output)) return count(json(output));
  if (output.type === 'content' && Array.isArray(output.value)) {
    return output.value.reduce((n: number, item) => {
      if (isObj(item) && typeof item.text === 'string') return n + count(item.text);
      if (isObj(item) && typeof item.mediaType === 'string' && item.mediaType.startsWith('image/')) {
        return n + imageTokens('auto', sizeOf(item.data, item.mediaType));
      }
      return n + FILE_TOKENS;
    }, 0);
  }
  return count(json(output.value ?? output.reason ?? ''));
}

/** Tokens of one part. */
function pricePart(part: unknown, count: (text: string) => number): number {
  if (!isObj(part)) return count(json(part));
  switch (part.type) {
    case 'text':
    case 'reasoning':
      return count(json(part.text ?? ''));
    case 'image':
      return imageTokens('auto', sizeOf(part.image, part.mediaType));
    case 'file':
      return typeof part.mediaType === 'string' && part.mediaType.startsWith('image/')
        ? imageTokens('auto', sizeOf(part.data, part.mediaType))
        : FILE_TOKENS;
    case 'tool-call':
      return count(json(part.toolName ?? '')) + count(json(part.input ?? null));
    case 'tool-result':
      return count(json(part.toolName ?? '')) + priceOutput(part.output, count);
    default:
      return count(json(part));
  }
}

/**
 * Prices an AI SDK model message: the chat envelope, its role, and its content (a string, or parts). Provider
 * options are settings for the provider call, not text the model reads: they are not priced.
 * @returns envelope, role and body tokens.
 */
export function priceAiSdkMessage(
  m: Obj,
  count: (text: string) => number
): { envelope: number; role: number; body: number } {
  const role = count(typeof m.role === 'string' ? m.role : '');
  if (typeof m.content === 'string') return { envelope: TOKENS_PER_MESSAGE, role, body: count(m.content) };
  const parts = Array.isArray(m.content) ? m.content : [];
  return { envelope: TOKENS_PER_MESSAGE, role, body: parts.reduce((n: number, p) => n + pricePart(p, count), 0) };
}
