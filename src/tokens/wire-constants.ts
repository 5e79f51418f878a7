/**
 * Wire-format overhead constants, all from the OpenAI cookbook notebook "How to count tokens with tiktoken"
 * (openai/openai-cookbook `examples/How_to_count_tokens_with_tiktoken.ipynb`, commit c81359cd).
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
 * An image content part. The cookbook has no image rule; OpenAI's vision pricing charges 85 base + 170 per 512-px
 * tile for gpt-4o at `detail: high`, so a 1024×1024 image is 85 + 4 × 170 = 765. We cannot see the image size from
 * a URL, so every image is priced as that common case rather than as the (huge) text of a base64 data URL.
 */
export const IMAGE_TOKENS = 765;
