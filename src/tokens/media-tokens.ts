/**
 * Prices of media content parts (images, files, audio) by the rules in `wire-constants.ts`, never by the text of
 * their base64 data.
 */
import { imageSizeFromDataUrl } from './image-size';
import {
  AUDIO_TOKENS,
  FILE_TOKENS,
  IMAGE_BASE_TOKENS,
  IMAGE_DEFAULT_SIDE,
  IMAGE_MAX_SIDE,
  IMAGE_SHORT_SIDE,
  IMAGE_TILE_SIDE,
  IMAGE_TILE_TOKENS,
} from './wire-constants';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Tokens of one image by the vision guide's rule.
 * @param detail the part's `detail` (`low`, `high`, `auto`; anything else is priced as `auto`).
 * @param size the image's dimensions, or undefined for the stated default ({@link IMAGE_DEFAULT_SIDE} square).
 * @returns 85 at low detail, else 85 + 170 per 512-px tile after fitting in 2048² and scaling the short side to 768.
 */
export function imageTokens(detail: unknown, size: { width: number; height: number } | undefined): number {
  if (detail === 'low') return IMAGE_BASE_TOKENS;
  let { width, height } = size ?? { width: IMAGE_DEFAULT_SIDE, height: IMAGE_DEFAULT_SIDE };
  const fit = Math.min(1, IMAGE_MAX_SIDE / Math.max(width, height));
  width *= fit;
  height *= fit;
  const shrink = Math.min(1, IMAGE_SHORT_SIDE / Math.min(width, height));
  width *= shrink;
  height *= shrink;
  const tiles = Math.ceil(width / IMAGE_TILE_SIDE) * Math.ceil(height / IMAGE_TILE_SIDE);
  return IMAGE_BASE_TOKENS + IMAGE_TILE_TOKENS * tiles;
}

/**
 * Prices a media content part: chat `image_url` (`{image_url: {url, detail}}`), Responses `input_image`
 * (`{image_url, detail}`), `input_file` / chat `file`, and `input_audio`.
 * @returns the tokens, or undefined when the part is not media.
 */
export function priceMediaPart(part: Obj): number | undefined {
  switch (part.type) {
    case 'image_url': {
      const image = isObj(part.image_url) ? part.image_url : {};
      return imageTokens(image.detail, sizeOf(image.url));
    }
    case 'input_image':
      return imageTokens(part.detail, sizeOf(part.image_url));
    case 'input_file':
    case 'file':
      return FILE_TOKENS;
    case 'input_audio':
      return AUDIO_TOKENS;
    default:
      return undefined;
  }
}

function sizeOf(url: unknown): { width: number; height: number } | undefined {
  return typeof url === 'string' ? imageSizeFromDataUrl(url) : undefined;
}
