/** The message model: formats, adapters, normalisation, validation and send-time normalisation. */
export * from './types';
export * from './format-adapter';
export { SUMMARY_MARKER } from './summary-marker';
export { chatAdapter, type ChatMessage } from './chat';
export { anthropicAdapter, type AnthropicMessage } from './anthropic';
export { anthropicRequest, type AnthropicRequestParts } from './anthropic-request';
export { responsesAdapter, type ResponsesItem } from './responses';
export { typedMessagesAdapter, typedSummaryHeader, type TypedMessage } from './typed-messages';
export { geminiAdapter, toGeminiRequest, type GeminiContent, type GeminiRequestContents } from './gemini';
export { aiSdkAdapter, type AiSdkMessage } from './ai-sdk';
export { adapterFor } from './adapter-for-format';
export { detectFormat } from './detect';
export { normalize, denormalize, pendingCalls } from './normalize';
export { TranscriptValidationError, type ValidationProblemKind } from './validate';
export { orderToolResults, prepareForSend, type SendOptions, type UnansweredPolicy } from './send';
