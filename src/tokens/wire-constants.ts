/**
 * Wire-format overhead constants: message and tool-schema framing from the OpenAI cookbook notebook "How to count
 * tokens with tiktoken" (openai/openai-cookbook `examples/How_to_count_tokens_with_tiktoken.ipynb`, commit c81359cd);
 * media (images, files, audio) from OpenAI's guides, each constant naming its source.
 */

/**
 * §6 `num_tokens_from_messages`: `tokens_per_message = 3` for gpt-3.5-turbo-0125, gpt-4-0314/0613, gpt-4-32k and
 * gpt-4o(-mini): each message is framed as `<|start|>{role/name}\n{content}<|end|>\n`.
 */
export const TOKENS_PER_MESSAGE = 3;

/** §6: `tokens_per_name = 1`, added on top of the name's own tokens when a message has a `name` field. */
export const TOKENS_PER_NAME = 1;

/** §6: `num_tokens += 3  # every reply is primed with <|start|>assistant<|message|>`, once per request. */
export const REPLY_PRIMING = 3;

/** §7 `num_tokens_for_tools` constants for one tool-schema family. */
export interface ToolSchemaConstants {
  /** Per function, before its `name:description` line. */
  funcInit: number;
  /** Once per function that has properties. */
  propInit: number;
  /** Per property, before its `name:type:description` line. */
  propKey: number;
  /** Per property that has an `enum`. */
  enumInit: number;
  /** Per enum item, before the item's own tokens. */
  enumItem: number;
  /** Once after all functions. */
  funcEnd: number;
}

/** §7 for gpt-4o / gpt-4o-mini (used for every o200k_base model): the example prices at 101 tokens. */
export const TOOL_CONSTANTS_O200K: ToolSchemaConstants = {
  funcInit: 7,
  propInit: 3,
  propKey: 3,
  enumInit: -3,
  enumItem: 3,
  funcEnd: 12,
};

/** §7 for gpt-3.5-turbo / gpt-4 (used for every cl100k_base model): the example prices at 105 tokens. */
export const TOOL_CONSTANTS_CL100K: ToolSchemaConstants = { ...TOOL_CONSTANTS_O200K, funcInit: 10 };

/**
 * Image parts, from OpenAI's vision guide ("Calculating costs", platform.openai.com/docs/guides/images-vision, the
 * GPT-4o / GPT-4.1 / o-series rule): `detail: 'low'` costs {@link IMAGE_BASE_TOKENS}; `high` (and `auto`, priced as
 * high because the model may choose it) first fits the image within {@link IMAGE_MAX_SIDE}² and then scales it so its
 * shortest side is at most {@link IMAGE_SHORT_SIDE}, and costs the base plus {@link IMAGE_TILE_TOKENS} per
 * {@link IMAGE_TILE_SIDE}-px tile. Images are never scaled up. Example from the guide: 1024×1024 high → 768×768 →
 * 4 tiles → 765; 2048×4096 → 1024×2048 → 768×1536 → 6 tiles → 1105.
 */
export const IMAGE_BASE_TOKENS = 85;
/** Per 512-px tile at high detail (vision guide). */
export const IMAGE_TILE_TOKENS = 170;
/** Tile side in pixels (vision guide). */
export const IMAGE_TILE_SIDE = 512;
/** The image is first fitted within this square (vision guide). */
export const IMAGE_MAX_SIDE = 2048;
/** Then its shortest side is scaled down to this (vision guide). */
export const IMAGE_SHORT_SIDE = 768;
/**
 * Size assumed when the dimensions cannot be read (an http(s) URL, a file id, an unknown or truncated header): the
 * guide's 1024×1024 example, 765 tokens at high detail. Dimensions are read from the header of base64 data URLs
 * (PNG, JPEG, GIF, WebP).
 */
export const IMAGE_DEFAULT_SIDE = 1024;
/** An image of unknown size at high detail: 85 + 4 × 170 (kept for callers of the earlier flat price). */
export const IMAGE_TOKENS = 765;

/**
 * A file part (`input_file` / chat `file`, e.g. a PDF). The API extracts the text *and* an image of every page; the
 * page count is not visible without parsing the document, so a file is priced by a stated estimate instead of its
 * base64 text (which would count a 22 KB PDF as ~12 000 tokens): one page's high-detail image (765) plus about a
 * page of text (~735). Calibration with reported usage corrects the rest.
 */
export const FILE_TOKENS = 1500;

/**
 * An audio part (`input_audio`). OpenAI's realtime guide prices user audio at 1 token per 100 ms; the duration is
 * not read from the data, so a clip is priced as a stated 30 seconds (300 tokens) rather than as its base64 text.
 */
export const AUDIO_TOKENS = 300;
