/**
 * Vercel AI SDK `ModelMessage`s (`ai` v5 and later): `system` (string content), `user` (string or `text` / `image` /
 * `file` parts), `assistant` (string or `text` / `file` / `reasoning` / `tool-call` / `tool-result` /
 * `tool-approval-request` parts) and `tool` (`tool-result` / `tool-approval-response` parts). `providerOptions` on a
 * message or a part is carried along untouched.
 *
 * Pairing: a `tool-call` is a call answered by the `tool-result` with its `toolCallId`; a `tool-approval-request` is a
 * call too (kind `tool-approval-request`, id its `approvalId`) answered by the `tool-approval-response` with that id,
 * so a pending approval is a pending call (never folded) and a request and its response are never split. A
 * provider-executed call answered inside the same assistant message is no call to pair. An assistant message with a
 * `reasoning` part is never edited (`withText` returns it as it is): providers check reasoning signatures.
 */
import type { FormatAdapter } from './format-adapter';
import { resultIdFields } from './pair';
import { contentText, isMarkedSummary, markedSummaryTextPart, notRunText, replaceContentText } from './text';
import type { Item, ToolCall } from './types';
import { TranscriptValidationError, describe, expectRoleMessage, isRecord, requireString } from './validate';

const AI_SDK_ROLES = ['system', 'user', 'assistant', 'tool'] as const;

/** An AI SDK model message; fields this engine does not read are carried along untouched. */
export type AiSdkMessage = Record<string, unknown> & { role: string };

/** `ToolCall.kind` of an approval request. */
export const APPROVAL_REQUEST = 'tool-approval-request';

/** The part types each role may hold. */
const PARTS_BY_ROLE: Record<string, ReadonlySet<string>> = {
  user: new Set(['text', 'image', 'file']),
  assistant: new Set(['text', 'file', 'reasoning', 'tool-call', 'tool-result', 'tool-approval-request']),
  tool: new Set(['tool-result', 'tool-approval-response']),
};

/** The `output` types of a tool result (`ai` v5 and v6). */
const OUTPUT_TYPES = new Set(['text', 'json', 'error-text', 'error-json', 'content', 'execution-denied']);

/** Reads a part's required string field. */
function field(part: Record<string, unknown>, name: string, index: number, p: number): string {
  return requireString(part, name, index, `content[${p}]`);
}

/**
 * Checks a tool result's `output`.
 * @throws TranscriptValidationError when it is not one of the output union's members.
 */
function checkOutput(output: unknown, index: number, p: number): void {
  if (!isRecord(output) || typeof output.type !== 'string' || !OUTPUT_TYPES.has(output.type)) {
    const found = isRecord(output) ? `type ${JSON.stringify(output.type)}` : describe(output);
    throw new TranscriptValidationError(
      index,
      `content[${p}].output must be one of ${[...OUTPUT_TYPES].join(', ')} outputs, found ${found}`,
      'wrong-type'
    );
  }
}

/** Readable text of a tool result's output. */
function outputText(output: Record<string, unknown>): string {
  if (typeof output.value === 'string') return output.value;
  if (output.type === 'content' && Array.isArray(output.value)) return contentText(output.value);
  if (output.type === 'execution-denied')
    return `[execution denied]${typeof output.reason === 'string' ? ` ${output.reason}` : ''}`;
  return JSON.stringify(output.value ?? null) ?? '';
}

/** Calls and results found in a parts array. */
interface PartsRead {
  calls: ToolCall[];
  results: string[];
  texts: string[];
  hasReasoning: boolean;
}

/**
 * Reads and checks the parts of a message of `role`.
 * @throws TranscriptValidationError on a non-object part, an unknown part type for the role, or a missing field.
 */
function readParts(parts: readonly unknown[], role: string, index: number): PartsRead {
  const allowed = PARTS_BY_ROLE[role]!;
  const out: PartsRead = { calls: [], results: [], texts: [], hasReasoning: false };
  const ownResults = new Set<string>();
  parts.forEach((part, p) => {
    if (!isRecord(part) || typeof part.type !== 'string' || !allowed.has(part.type)) {
      const found = isRecord(part) ? `a part of type ${JSON.stringify(part.type)}` : describe(part);
      throw new TranscriptValidationError(
        index,
        `content[${p}] is ${found}, which a '${role}' message cannot hold (allowed: ${[...allowed].join(', ')})`,
        'wrong-type'
      );
    }
    switch (part.type) {
      case 'text':
      case 'reasoning':
        out.texts.push(field(part, 'text', index, p));
        if (part.type === 'reasoning') out.hasReasoning = true;
        break;
      case 'tool-call': {
        const id = field(part, 'toolCallId', index, p);
        if (out.calls.some((c) => c.id === id)) {
          throw new TranscriptValidationError(
            index,
            `content[${p}]: two tool calls share the id '${id}'`,
            'wrong-type'
          );
        }
        out.calls.push({ id, name: field(part, 'toolName', index, p), arguments: JSON.stringify(part.input ?? null) });
        break;
      }
      case 'tool-result': {
        const id = field(part, 'toolCallId', index, p);
        field(part, 'toolName', index, p);
        checkOutput(part.output, index, p);
        out.texts.push(outputText(part.output as Record<string, unknown>));
        if (role === 'assistant') ownResults.add(id);
        else out.results.push(id);
        break;
      }
      case 'tool-approval-request': {
        const id = field(part, 'approvalId', index, p);
        const callId = field(part, 'toolCallId', index, p);
        const name = out.calls.find((c) => c.id === callId)?.name ?? '';
        out.calls.push({ id, name, arguments: JSON.stringify({ toolCallId: callId }), kind: APPROVAL_REQUEST });
        break;
      }
      case 'tool-approval-response':
        out.results.push(field(part, 'approvalId', index, p));
        if (typeof part.approved !== 'boolean') {
          throw new TranscriptValidationError(
            index,
            `content[${p}].approved must be a boolean, found ${describe(part.approved)}`,
            'wrong-type'
          );
        }
        break;
      default:
        break; // image, file: no text, priced as media
    }
  });
  if (ownResults.size > 0) {
    for (const id of ownResults) {
      if (!out.calls.some((c) => c.id === id)) {
        throw new TranscriptValidationError(
          index,
          `an assistant tool-result for '${id}' answers no tool-call of this message`,
          'unknown-call'
        );
      }
    }
    // Provider-executed calls answered in their own message pair with nothing outside it.
    out.calls = out.calls.filter((c) => c.kind === APPROVAL_REQUEST || !ownResults.has(c.id));
  }
  return out;
}

/** The AI SDK adapter. */
export const aiSdkAdapter: FormatAdapter<AiSdkMessage> = {
  format: 'ai-sdk',

  toItem(raw: unknown, index: number): Item<AiSdkMessage> {
    const { msg, role } = expectRoleMessage(raw, index, AI_SDK_ROLES, 'AI SDK: system, user, assistant, tool');
    if (msg.providerOptions !== undefined && !isRecord(msg.providerOptions)) {
      throw new TranscriptValidationError(
        index,
        `field 'providerOptions' must be an object, found ${describe(msg.providerOptions)}`,
        'wrong-type'
      );
    }
    const base = { index, calls: [] as ToolCall[], turnStart: false, raw: msg as AiSdkMessage };
    const content = msg.content;
    if (role === 'system') {
      if (typeof content !== 'string') {
        throw new TranscriptValidationError(
          index,
          `field 'content' of a system message must be a string, found ${describe(content)}`,
          'wrong-type'
        );
      }
      return { ...base, role: 'instructions', text: content };
    }
    if (typeof content === 'string' && role !== 'tool') {
      const summary = role === 'user' && isMarkedSummary(content);
      return { ...base, role: summary ? 'summary' : role, turnStart: role === 'user' && !summary, text: content };
    }
    if (!Array.isArray(content)) {
      const expected = role === 'tool' ? 'an array of parts' : 'a string or an array of parts';
      throw new TranscriptValidationError(
        index,
        `field 'content' must be ${expected}, found ${describe(content)}`,
        'wrong-type'
      );
    }
    const read = readParts(content, role, index);
    const text = read.texts.join('\n');
    if (role === 'tool') return { ...base, role: 'tool', ...resultIdFields(read.results), text };
    if (role === 'assistant') return { ...base, role: 'assistant', calls: read.calls, text };
    const summary = content.length === 1 && isMarkedSummary(text);
    return { ...base, role: summary ? 'summary' : 'user', turnStart: !summary, text };
  },

  withToolOutput(raw, text) {
    if (!Array.isArray(raw.content)) return raw;
    const content = (raw.content as unknown[]).map((p) =>
      isRecord(p) && p.type === 'tool-result' ? { ...p, output: { type: 'text', value: text } } : p
    );
    return { ...raw, content };
  },

  withText(raw, text) {
    if (Array.isArray(raw.content) && raw.content.some((p) => isRecord(p) && p.type === 'reasoning')) return raw;
    if (raw.role === 'tool') return aiSdkAdapter.withToolOutput(raw, text);
    return { ...raw, content: replaceContentText(raw.content, text) };
  },

  summaryItem(text, meta) {
    return markedSummaryTextPart(text, meta);
  },

  notRunResult(call) {
    if (call.kind === APPROVAL_REQUEST) {
      return {
        role: 'tool',
        content: [{ type: 'tool-approval-response', approvalId: call.id, approved: false, reason: notRunText(call) }],
      };
    }
    return {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: call.id,
          toolName: call.name,
          output: { type: 'error-text', value: notRunText(call) },
        },
      ],
    };
  },
};
