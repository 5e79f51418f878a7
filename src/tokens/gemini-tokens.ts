/**
 * Pricing of Gemini contents. Gemini has no offline tokenizer: text is counted with the model's estimating encoding
 * (see `encoding-for-model.ts`) and media by Gemini's published rules, never by the text of their base64 data.
 */
import { isObj, json, type Obj } from './json-values';
import { imageSizeFromDataUrl } from './image-size';
import { TOKENS_PER_MESSAGE } from './wire-constants';

/** Gemini: an image with both sides at most 384 px is 258 tokens; a larger one is cut into 768-px tiles of 258 each. */
export const GEMINI_IMAGE_TILE_TOKENS = 258;
/** Side up to which an image is one tile. */
export const GEMINI_SMALL_IMAGE_SIDE = 384;
/** Side of a tile of a larger image. */
export const GEMINI_IMAGE_TILE_SIDE = 768;
/** Size assumed when the image's dimensions cannot be read (a `fileData` URI, an unknown header): 1024², 4 tiles. */
export const GEMINI_DEFAULT_IMAGE_SIDE = 1024;
/** A PDF is 258 tokens per page; the page count is not read, so a document is a stated 5 pages. */
export const GEMINI_DOCUMENT_TOKENS = 5 * GEMINI_IMAGE_TILE_TOKENS;
/** Audio is 32 tokens per second; the duration is not read, so a clip is a stated 30 seconds. */
export const GEMINI_AUDIO_TOKENS = 32 * 30;
/** Video is 263 tokens per second (frames and sound); the duration is not read: a stated 30 seconds. */
export const GEMINI_VIDEO_TOKENS = 263 * 30;

/**
 * Tokens of one image by Gemini's rule.
 * @param size the image's dimensions, or undefined for {@link GEMINI_DEFAULT_IMAGE_SIDE} square.
 * @returns 258 up to 384×384, else 258 per 768-px tile.
 */
export function geminiImageTokens(size: { width: number; height: number } | undefined): number {
  const { width, height } = size ?? { width: GEMINI_DEFAULT_IMAGE_SIDE, height: GEMINI_DEFAULT_IMAGE_SIDE };
  if (width <= GEMINI_SMALL_IMAGE_SIDE && height <= GEMINI_SMALL_IMAGE_SIDE) return GEMINI_IMAGE_TILE_TOKENS;
  return (
    GEMINI_IMAGE_TILE_TOKENS * Math.ceil(width / GEMINI_IMAGE_TILE_SIDE) * Math.ceil(height / GEMINI_IMAGE_TILE_SIDE)
  );
}

/**
 * Tokens of a media item by its MIME type: images by {@link geminiImageTokens}, PDFs, audio and video by their
 * stated estimates; any other type (text/plain, code) is priced like a document.
 * @param data base64 data when the bytes are inline (image dimensions are read from its header).
 */
export function geminiMediaTokens(mimeType: unknown, data: unknown): number {
  const type = typeof mimeType === 'string' ? mimeType.toLowerCase() : '';
  if (type.startsWith('image/')) {
    return geminiImageTokens(
      typeof data === 'string' ? imageSizeFromDataUrl(`data:${type};base64,${data}`) : undefined
    );
  }
  if (type.startsWith('audio/')) return GEMINI_AUDIO_TOKENS;
  if (type.startsWith('video/')) return GEMINI_VIDEO_TOKENS;
  return GEMINI_DOCUMENT_TOKENS;
}

/** Tokens of one part: text by its text, calls and responses by name and JSON, media by the rules above. */
function pricePart(part: unknown, count: (text: string) => number): number {
  if (!isObj(part)) return count(json(part));
  if (typeof part.text === 'string') return count(part.text);
  if (isObj(part.inlineData)) return geminiMediaTokens(part.inlineData.mimeType, part.inlineData.data);
  if (isObj(part.fileData)) return geminiMediaTokens(part.fileData.mimeType, undefined);
  const call = isObj(part.functionCall)
    ? part.functionCall
    : isObj(part.functionResponse)
      ? part.functionResponse
      : undefined;
  if (call) {
    const media = Array.isArray(call.parts) ? call.parts.reduce((n: number, p) => n + pricePart(p, count), 0) : 0;
    return count(json(call.name ?? '')) + count(json(call.args ?? call.response ?? {})) + media;
  }
  if (isObj(part.executableCode)) return count(json(part.executableCode.code ?? ''));
  if (isObj(part.codeExecutionResult)) return count(json(part.codeExecutionResult.output ?? ''));
  return count(json(part));
}

/**
 * Prices a Gemini content (or the conversation's `system` element): the chat envelope, its role, and its parts. A
 * thought signature is opaque state the model reads back, not prose: it is not priced.
 * @returns envelope, role and body tokens.
 */
export function priceGeminiContent(
  m: Obj,
  count: (text: string) => number
): { envelope: number; role: number; body: number } {
  const parts = Array.isArray(m.parts) ? m.parts : [];
  const body = parts.reduce((n: number, p) => n + pricePart(p, count), 0);
  return { envelope: TOKENS_PER_MESSAGE, role: count(typeof m.role === 'string' ? m.role : ''), body };
}
