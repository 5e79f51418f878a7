/**
 * Format detection as conversations recorded before Anthropic detection (patch `formats-from-evidence-only`) did it,
 * kept frozen so their histories replay: the first element with a vote decides, a chat `text` part votes chat, and
 * nothing is ever refused. New work uses `detectFormat` (detect.ts).
 */
import type { MessageFormat } from './types';
import { isRecord } from './validate';

const TYPED = new Set(['user', 'bot', 'context', 'instructions', 'activity']);
const RESPONSES_PARTS = new Set(['input_text', 'output_text', 'input_image', 'input_file', 'refusal']);

function recordedVote(el: unknown): MessageFormat | undefined {
  if (!isRecord(el)) return undefined;
  const { type, role } = el;
  if (typeof type === 'string') {
    if (role === undefined && TYPED.has(type)) return 'typed';
    if (type === 'reasoning') return typeof el.text === 'string' && !Array.isArray(el.summary) ? 'typed' : 'responses';
    const responsesItem =
      type === 'message' || type.endsWith('_call') || type.endsWith('_call_output') || type === 'compaction';
    if (responsesItem || role === undefined) return 'responses';
  }
  if (typeof role !== 'string') return undefined;
  const chatOnly = role === 'tool' || role === 'function' || el.tool_calls !== undefined;
  if (chatOnly || el.tool_call_id !== undefined) return 'chat';
  const parts: unknown[] = Array.isArray(el.content) ? el.content : [];
  for (const part of parts) {
    if (!isRecord(part) || typeof part.type !== 'string') continue;
    if (RESPONSES_PARTS.has(part.type)) return 'responses';
    if (part.type === 'text' || part.type === 'image_url') return 'chat';
  }
  return undefined;
}

/** @returns the format the first element with a vote names, `chat` when none has one (never throws). */
export function recordedDetectFormat(messages: readonly unknown[]): MessageFormat {
  for (const el of messages) {
    const v = recordedVote(el);
    if (v) return v;
  }
  return 'chat';
}

/** `upgradesToResponses` (format-upgrade.ts) as recorded conversations decided it. */
export function recordedUpgradesToResponses(stored: readonly unknown[], fresh: readonly unknown[]): boolean {
  return recordedDetectFormat(fresh) === 'responses' && stored.every((el) => recordedVote(el) === undefined);
}
