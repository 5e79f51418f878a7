/** Token counting (activity side only: never import this from workflow or core code). */
export { createTokenCounter, DEFAULT_CACHE_SIZE } from './counter';
export type { TokenCounter, TokenCounterOptions, CachingTokenCounter } from './counter';
export { countersByModel } from './counters-by-model';
export { encodingForModel, DEFAULT_ENCODING, DEFAULT_SAFETY_FACTOR } from './encoding-for-model';
export type { EncodingName, EncodingChoice } from './encoding-for-model';
export { countText } from './count-text';
export { countBounded, mayHaveLongPiece, LONG_PIECE } from './bounded';
export { priceMessage } from './message-tokens';
export type { MessagePrice, TextCount } from './message-tokens';
export { priceTools } from './tool-tokens';
export { imageTokens, priceMediaPart } from './media-tokens';
export { imageSizeFromDataUrl } from './image-size';
export { LruCache, messageKey } from './lru';
export { TokenInputError } from './errors';
export * from './wire-constants';
