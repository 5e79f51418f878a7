/**
 * Anthropic Messages API messages: `{role: 'user' | 'assistant', content: string | blocks}`, plus a `{role: 'system'}`
 * element holding the system prompt, which the API takes as its `system` parameter (`anthropicRequest` moves it
 * there). One message is one item: the `tool_use` blocks of an assistant turn are its calls, the `tool_result` blocks
 * of the next user turn its results, so a turn and its answers are one cut group; server-tool and MCP pairs live inside
 * one assistant turn and are never split because a message is never split. Blocks of a type this file does not know
 * pass through untouched; blocks of a known type are checked for the fields the API requires.
 */
import type { FormatAdapter } from './format-adapter';
import { resultIdFields } from './pair';
import { contentText, isMarkedSummary, markedSummaryTextPart, notRunText, replaceContentText } from './text';
import type { Item, ToolCall } from './types';
import { TranscriptValidationError, describe, expectRecord, isRecord } from './validate';

/** An Anthropic message as far as this engine reads it; every other field is carried along untouched. */
export type AnthropicMessage = Record<string, unknown> & { role: string };

type Block = Record<string, unknown> & { type: string };

/** Result blocks of server tools, each answering a `server_tool_use` of the same assistant turn. */
const SERVER_RESULT = /^[a-z_]+_tool_result$/;

/** Blocks only the assistant writes (the model's own output). */
const ASSISTANT_ONLY = new Set(['thinking', 'redacted_thinking', 'tool_use', 'server_tool_use', 'mcp_tool_use']);

/** Blocks whose bytes the provider checks (signatures): a turn holding one is never edited. */
const SIGNED = new Set(['thinking', 'redacted_thinking']);

/**
 * The block types of the Messages API (documented as of 2026-12): an element holding one of them is Anthropic.
 * `text` and `image`/`document` without `source` are left out: other formats have parts of those names.
 */
export const ANTHROPIC_BLOCK_TYPES: ReadonlySet<string> = new Set([
  'tool_use',
  'tool_result',
  'thinking',
  'redacted_thinking',
  'server_tool_use',
  'web_search_tool_result',
  'web_fetch_tool_result',
  'code_execution_tool_result',
  'bash_code_execution_tool_result',
  'text_editor_code_execution_tool_result',
  'tool_search_tool_result',
  'mcp_tool_use',
  'mcp_tool_result',
  'search_result',
  'container_upload',
]);

/** True for a block only the Anthropic format has (see {@link ANTHROPIC_BLOCK_TYPES}; media by their `source`). */
export function isAnthropicBlock(part: unknown): boolean {
  if (!isRecord(part) || typeof part.type !== 'string') return false;
  if (ANTHROPIC_BLOCK_TYPES.has(part.type)) return true;
  return (part.type === 'image' || part.type === 'document') && isRecord(part.source);
}

/** True when an assistant message holds a thinking or redacted_thinking block (its bytes must never change). */
export function holdsSignedBlocks(raw: unknown): boolean {
  return (
    isRecord(raw) && Array.isArray(raw.content) && raw.content.some((b) => isRecord(b) && SIGNED.has(String(b.type)))
  );
}

function fail(
  index: number,
  problem: string,
  kind: 'wrong-type' | 'unknown-call' | 'duplicate-id' = 'wrong-type'
): never {
  throw new TranscriptValidationError(index, problem, kind);
}

/** Reads `content` as blocks: a string is one text block; an array must hold objects with a string `type`. */
function readBlocks(msg: Record<string, unknown>, index: number): Block[] {
  const c = msg.content;
  if (typeof c === 'string') return [{ type: 'text', text: c }];
  if (!Array.isArray(c))
    fail(index, `field 'content' must be a string or an array of content blocks, found ${describe(c)}`);
  return c.map((b: unknown, k) => {
    if (!isRecord(b)) fail(index, `content[${k}] must be a content block object, found ${describe(b)}`);
    if (typeof b.type !== 'string') fail(index, `content[${k}] has no string 'type' (found ${describe(b.type)})`);
    return b as Block;
  });
}

/** Checks the fields the API requires of the known block types; unknown types pass. */
function checkBlock(b: Block, k: number, role: string, index: number): void {
  const at = `content[${k}]`;
  const need = (field: string, what: 'string' | 'object'): void => {
    const v = b[field];
    const ok = what === 'string' ? typeof v === 'string' : isRecord(v);
    if (!ok) fail(index, `${at} (${b.type}) needs ${what} field '${field}', found ${describe(v)}`);
  };
  if (role === 'user' && ASSISTANT_ONLY.has(b.type))
    fail(index, `${at} is a '${b.type}' block, which only an assistant turn holds`);
  if (role === 'assistant' && b.type === 'tool_result')
    fail(index, `${at} is a 'tool_result' block, which only a user turn holds`);
  switch (b.type) {
    case 'text':
      return need('text', 'string');
    case 'thinking':
      need('thinking', 'string');
      if (typeof b.signature !== 'string' || b.signature === '') {
        fail(
          index,
          `${at} is a thinking block without a signature (the API rejects a thinking block it cannot verify)`
        );
      }
      return;
    case 'redacted_thinking':
      return need('data', 'string');
    case 'image':
    case 'document':
      return need('source', 'object');
    case 'tool_use':
    case 'server_tool_use':
    case 'mcp_tool_use':
      need('id', 'string');
      need('name', 'string');
      return need('input', 'object');
    case 'tool_result': {
      need('tool_use_id', 'string');
      const c = b.content;
      if (c !== undefined && typeof c !== 'string' && !Array.isArray(c)) {
        fail(index, `${at} (tool_result) field 'content' must be a string or an array of blocks, found ${describe(c)}`);
      }
      if (b.is_error !== undefined && typeof b.is_error !== 'boolean') {
        fail(index, `${at} (tool_result) field 'is_error' must be a boolean, found ${describe(b.is_error)}`);
      }
      return;
    }
    case 'mcp_tool_result':
      return need('tool_use_id', 'string');
    default:
      if (SERVER_RESULT.test(b.type)) need('tool_use_id', 'string');
  }
}

/** The calls of an assistant turn: its `tool_use` blocks; server-tool and MCP results must answer a call of the turn. */
function readAssistant(blocks: Block[], index: number): ToolCall[] {
  const calls: ToolCall[] = [];
  const ids = new Set<string>();
  const inTurn = new Set<string>();
  blocks.forEach((b, k) => {
    if (b.type === 'tool_use' || b.type === 'server_tool_use' || b.type === 'mcp_tool_use') {
      const id = b.id as string;
      if (ids.has(id))
        fail(index, `content[${k}] repeats the call id '${id}' of an earlier block of this turn`, 'duplicate-id');
      ids.add(id);
      if (b.type === 'tool_use')
        calls.push({ id, name: b.name as string, arguments: JSON.stringify(b.input), kind: 'tool_use' });
      else inTurn.add(id);
    } else if (b.type === 'mcp_tool_result' || (SERVER_RESULT.test(b.type) && b.type !== 'tool_result')) {
      const id = b.tool_use_id as string;
      if (!inTurn.has(id)) {
        fail(
          index,
          `content[${k}] (${b.type}) answers '${id}', but no earlier server or MCP call of this turn has that id`,
          'unknown-call'
        );
      }
    }
  });
  return calls;
}

/** The call ids a user turn answers, in order; its `tool_result` blocks must come before every other block. */
function readResults(blocks: Block[], index: number): string[] {
  const ids: string[] = [];
  let other = -1;
  blocks.forEach((b, k) => {
    if (b.type !== 'tool_result') {
      if (other === -1) other = k;
      return;
    }
    if (other !== -1) {
      fail(
        index,
        `content[${k}] is a tool_result after the ${blocks[other]!.type} block content[${other}]; tool_result blocks must come first in a user turn`
      );
    }
    const id = b.tool_use_id as string;
    if (ids.includes(id)) fail(index, `content[${k}] answers '${id}' a second time in this turn`, 'duplicate-id');
    ids.push(id);
  });
  return ids;
}

/** The prose of a tool_result block's content (string or blocks). */
function resultText(b: Block): string {
  return contentText(b.content);
}

/** The Anthropic Messages adapter. */
export const anthropicAdapter: FormatAdapter<AnthropicMessage> = {
  format: 'anthropic',

  toItem(raw: unknown, index: number): Item<AnthropicMessage> {
    const msg = expectRecord(raw, index);
    const role = msg.role;
    if (role === undefined) throw new TranscriptValidationError(index, "missing field 'role'", 'missing-role');
    if (typeof role !== 'string') fail(index, `field 'role' must be a string, found ${describe(role)}`);
    const base = { index, calls: [] as ToolCall[], turnStart: false, raw: msg as AnthropicMessage };
    if (role === 'system') {
      const blocks = readBlocks(msg, index);
      blocks.forEach((b, k) =>
        b.type === 'text'
          ? checkBlock(b, k, role, index)
          : fail(index, `content[${k}] of the system element must be a text block, found '${b.type}'`)
      );
      return { ...base, role: 'instructions', text: contentText(msg.content) };
    }
    if (role !== 'user' && role !== 'assistant') {
      throw new TranscriptValidationError(
        index,
        `unknown role '${role}' (Anthropic messages are 'user' or 'assistant'; the system prompt is a leading 'system' element)`,
        'unknown-role'
      );
    }
    const blocks = readBlocks(msg, index);
    blocks.forEach((b, k) => checkBlock(b, k, role, index));
    const text = blocks
      .filter((b) => b.type === 'text')
      .map((b) => b.text as string)
      .join('\n');
    if (role === 'assistant') return { ...base, role: 'assistant', calls: readAssistant(blocks, index), text };
    const results = readResults(blocks, index);
    if (results.length > 0) {
      const outputs = blocks.filter((b) => b.type === 'tool_result').map(resultText);
      return {
        ...base,
        role: 'tool',
        ...resultIdFields(results),
        text: [...outputs, text].filter((t) => t !== '').join('\n'),
        noCutBefore: true,
      };
    }
    if (isMarkedSummary(text)) return { ...base, role: 'summary', text };
    return { ...base, role: 'user', turnStart: true, text };
  },

  withToolOutput(raw, text) {
    if (!Array.isArray(raw.content)) return { ...raw, content: text };
    return {
      ...raw,
      content: raw.content.map((b: unknown) => (isRecord(b) && b.type === 'tool_result' ? { ...b, content: text } : b)),
    };
  },

  withText(raw, text) {
    // A signed turn is kept byte-for-byte or folded whole: the provider verifies its thinking blocks.
    if (holdsSignedBlocks(raw)) return raw;
    return { ...raw, content: replaceContentText(raw.content, text) };
  },

  summaryItem(text, meta) {
    return markedSummaryTextPart(text, meta);
  },

  notRunResult(call) {
    return {
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: call.id, content: notRunText(call), is_error: true }],
    };
  },
};
