/**
 * Answering the model's `recall` calls inside an agent loop: pick the calls out of the model's output in the
 * conversation's format, run each query, and write each answer as that format's tool result, so the loop sends the
 * results back like any other tool's. A query the archive cannot run (malformed, nothing to look for) is answered
 * with `{"error": …}` for the model to correct, not thrown.
 */
import { RecallQueryError } from '../core/recall/query';
import { adapterFor } from '../core/messages/adapter-for-format';
import type { ToolCall } from '../core/messages/types';
import type { RecallResult } from '../archive/recall';
import { RECALL_TOOL_NAME, type RecallToolFormat } from './recall-tool';

/**
 * @returns the `recall` calls the model made in `output` (one element of the conversation's format, or several: a
 *   Responses `output` array, the AI SDK's `response.messages`), in order.
 * @throws TranscriptValidationError when an element is not a valid element of `format`.
 */
export function recallCalls(output: unknown, format: RecallToolFormat): ToolCall[] {
  const adapter = adapterFor(format);
  const elements = Array.isArray(output) ? output : [output];
  return elements.flatMap((e, i) => adapter.toItem(e, i).calls.filter((c) => c.name === RECALL_TOOL_NAME));
}

/** @returns the query a recall call asks for. @throws RecallQueryError when its arguments hold no string `query`. */
export function recallQueryOf(call: ToolCall): string {
  let args: unknown;
  try {
    args = JSON.parse(call.arguments);
  } catch {
    throw new RecallQueryError(`the recall call's arguments are not JSON: ${call.arguments.slice(0, 200)}`);
  }
  const query = (args as { query?: unknown } | null)?.query;
  if (typeof query !== 'string') throw new RecallQueryError('the recall call has no string "query" argument');
  return query;
}

/**
 * @returns the tool result answering `call` in `format`: its output is the JSON of `answer` (a recall result, or
 *   `{error}`); an Anthropic result is marked `is_error` exactly when it carries an error.
 */
export function recallToolResult(
  call: ToolCall,
  answer: RecallResult | { error: string },
  format: RecallToolFormat
): unknown {
  const adapter = adapterFor(format);
  const result = adapter.withToolOutput(adapter.notRunResult(call), JSON.stringify(answer));
  if (format !== 'anthropic') return result;
  const turn = result as { content: Record<string, unknown>[] };
  const isError = 'error' in answer;
  return {
    ...turn,
    content: turn.content.map(({ is_error: _was, ...block }) => (isError ? { ...block, is_error: true } : block)),
  };
}

/**
 * @returns the tool results answering every `recall` call in `output`, each answered by `recall(query)`, as the
 *   elements to append: one per call in chat and Responses; one turn holding them all in Anthropic, Gemini and the
 *   AI SDK (those formats answer a turn's calls in one turn: results of the model's other tools go into it too);
 *   `[]` when the model made none. A query `recall` refuses (RecallQueryError) is answered with `{error}`.
 * @throws what `recall` throws otherwise (the archive cannot be read).
 */
export async function answerRecallCalls(
  output: unknown,
  format: RecallToolFormat,
  recall: (query: string) => Promise<RecallResult>
): Promise<unknown[]> {
  const answers: unknown[] = [];
  for (const call of recallCalls(output, format)) {
    let answer: RecallResult | { error: string };
    try {
      answer = await recall(recallQueryOf(call));
    } catch (err) {
      if (!(err instanceof RecallQueryError)) throw err;
      answer = { error: err.message };
    }
    answers.push(recallToolResult(call, answer, format));
  }
  return format === 'chat' || format === 'responses' ? answers : oneTurn(answers, format);
}

/** The results' blocks, parts or content in one element (the first result's, with the others' appended). */
function oneTurn(results: unknown[], format: 'anthropic' | 'gemini' | 'ai-sdk'): unknown[] {
  if (results.length <= 1) return results;
  const field = format === 'gemini' ? 'parts' : 'content';
  const turns = results as Record<string, unknown[]>[];
  return [{ ...turns[0], [field]: turns.flatMap((t) => t[field]!) }];
}
