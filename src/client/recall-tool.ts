/**
 * The `recall` tool an agent adds to its model's tools, in each provider's shape, so the model can ask for what the
 * summaries only point at (`(→ #12)`, `archive #12–#40`) or for any identifier it saw before a fold. The conversation's
 * archive answers it (`ConversationClient.recall`, `answerRecall`).
 */
import type { jsonSchema as JsonSchema, Schema } from 'ai';
import type { MessageFormat } from '../core/messages/types';

/** The tool's name: the model calls `recall`; `recallCalls` picks these calls out of its output. */
export const RECALL_TOOL_NAME = 'recall';

/** The formats with tool calls (typed messages have none). */
export type RecallToolFormat = Exclude<MessageFormat, 'typed'>;

const DESCRIPTION =
  'Look up earlier messages of this conversation that are no longer in your context, word for word. Older parts ' +
  'were summarised; pointers such as (→ #12) or archive #12–#40 in a summary name archived originals. Query by ' +
  'archive number (#12), range (#12-#40), an identifier (ticket, hash, path, id) or words (a message must hold every ' +
  'word; quote a phrase, and quote text holding #, such as "issue #12"). Returns {"matches": [{"seq", "message"}], "omitted", "truncated"}.';

/** The tool's input, as JSON Schema (every provider accepts this subset; strict-mode compatible). */
export type RecallParameters = {
  type: 'object';
  properties: { query: { type: 'string'; description: string } };
  required: string[];
  additionalProperties: false;
};

/** A fresh copy each time: a caller may edit what it gets. */
function parameters(): RecallParameters {
  return {
    type: 'object',
    properties: {
      query: {
        type: 'string',
        description: 'Archive numbers (#12, #12-#40), an identifier, or words to find. At most 1000 characters.',
      },
    },
    required: ['query'],
    additionalProperties: false,
  };
}

/** OpenAI Chat Completions `tools[]` entry. */
export interface ChatRecallTool {
  type: 'function';
  function: { name: string; description: string; parameters: RecallParameters; strict: true };
}
/** OpenAI Responses `tools[]` entry. */
export interface ResponsesRecallTool {
  type: 'function';
  name: string;
  description: string;
  parameters: RecallParameters;
  strict: true;
}
/** Anthropic Messages `tools[]` entry (a custom tool). */
export interface AnthropicRecallTool {
  type: 'custom';
  name: string;
  description: string;
  input_schema: RecallParameters;
}
/** Gemini `tools[]` entry: one function declaration, its parameters as JSON Schema. */
export interface GeminiRecallTool {
  functionDeclarations: [{ name: string; description: string; parametersJsonSchema: RecallParameters }];
}
/**
 * AI SDK `tools` entry (spread it into the `tools` object): the tool's description and its input schema as the SDK's
 * `jsonSchema(…)` returns it. Without `execute`, so the agent loop answers the call with `answerRecall`.
 */
export type AiSdkRecallTool = { recall: { description: string; inputSchema: Schema<{ query: string }> } };

/** The recall tool in each format's shape. */
export interface RecallToolShapes {
  chat: ChatRecallTool;
  responses: ResponsesRecallTool;
  anthropic: AnthropicRecallTool;
  gemini: GeminiRecallTool;
  'ai-sdk': AiSdkRecallTool;
}

/**
 * @returns the `recall` tool definition in the shape `format`'s provider takes in its request's `tools` (for the AI
 *   SDK: an object to spread into `tools`, `{ ...recallTool('ai-sdk'), ...yourTools }`).
 * @throws RangeError for a format without tool calls (`typed`) or an unknown one.
 */
export function recallTool<F extends RecallToolFormat>(format: F): RecallToolShapes[F];
export function recallTool(format: RecallToolFormat): RecallToolShapes[RecallToolFormat] {
  const name = RECALL_TOOL_NAME;
  const description = DESCRIPTION;
  switch (format) {
    case 'chat':
      return { type: 'function', function: { name, description, parameters: parameters(), strict: true } };
    case 'responses':
      return { type: 'function', name, description, parameters: parameters(), strict: true };
    case 'anthropic':
      return { type: 'custom', name, description, input_schema: parameters() };
    case 'gemini':
      return { functionDeclarations: [{ name, description, parametersJsonSchema: parameters() }] };
    case 'ai-sdk':
      return { recall: { description, inputSchema: aiSdkSchema() } };
    default:
      throw new RangeError(
        `recallTool: format '${String(format)}' has no tool calls (use chat, responses, anthropic, gemini or ai-sdk)`
      );
  }
}

/** The SDK's own schema wrapper, loaded only when asked for (the `ai` package is needed for AI SDK agents only). */
function aiSdkSchema(): Schema<{ query: string }> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { jsonSchema } = require('ai') as { jsonSchema: typeof JsonSchema };
  return jsonSchema<{ query: string }>(parameters());
}
