/**
 * The typed-message shape (format `'typed'`, formerly `'s0'`): `{id?, type, text, payload?, meta?}` with type user | bot | context | reasoning |
 * instructions | activity. A `context` message whose `meta.compacted` is true is a summary that format's own compactor (or this engine)
 * wrote. An activity is a tool action and its outcome in one message, so this format has no separate calls or results.
 * Unknown types pass through as role `other`.
 */
import type { FormatAdapter } from './format-adapter';
import { notRunText } from './text';
import type { Item, ItemRole } from './types';
import { TranscriptValidationError, describe, expectRecord, isRecord, optionalString } from './validate';

/** A typed message; fields beyond these are carried along untouched. */
export type TypedMessage = Record<string, unknown> & { type: string; text?: string };

const ROLES: Record<string, ItemRole> = {
  user: 'user',
  bot: 'assistant',
  reasoning: 'reasoning',
  instructions: 'instructions',
  activity: 'activity',
};

/** The header the format's own compactor puts before a summary's text (kept byte-for-byte so its corpus records compare equal). */
export function typedSummaryHeader(droppedCount: number): string {
  return `[Conversation summary - ${droppedCount} earlier message(s) condensed]`;
}

/** The typed-message adapter. */
export const typedMessagesAdapter: FormatAdapter<TypedMessage> = {
  format: 'typed',

  toItem(raw: unknown, index: number): Item<TypedMessage> {
    const msg = expectRecord(raw, index);
    const type = msg.type;
    if (type === undefined) throw new TranscriptValidationError(index, "missing field 'type'", 'missing-role');
    if (typeof type !== 'string') {
      throw new TranscriptValidationError(
        index,
        `field 'type' must be a string, found ${describe(type)}`,
        'wrong-type'
      );
    }
    const text = optionalString(msg, 'text', index) ?? '';
    optionalString(msg, 'payload', index);
    const id = optionalString(msg, 'id', index);
    const meta = msg.meta;
    if (meta !== undefined && meta !== null && !isRecord(meta)) {
      throw new TranscriptValidationError(
        index,
        `field 'meta' must be an object, found ${describe(meta)}`,
        'wrong-type'
      );
    }
    // A plain `context` message is background the caller injected: user-side, but not the start of a turn.
    const role: ItemRole =
      type === 'context' ? (isRecord(meta) && meta.compacted === true ? 'summary' : 'user') : (ROLES[type] ?? 'other');
    return {
      index,
      role,
      turnStart: type === 'user',
      calls: [],
      text,
      ...(id === undefined || id === '' ? {} : { id }),
      raw: msg as TypedMessage,
    };
  },

  withToolOutput(raw, text) {
    return { ...raw, text };
  },

  withText(raw, text) {
    return { ...raw, text };
  },

  summaryItem(text, meta) {
    return {
      type: 'context',
      text: `${typedSummaryHeader(meta.droppedCount)}\n\n${text.trim()}`,
      meta: {
        compacted: true,
        droppedCount: meta.droppedCount,
        ...(meta.summarizedIds.length > 0 ? { summarizedIds: meta.summarizedIds } : {}),
      },
    };
  },

  notRunResult(call) {
    return { type: 'activity', text: notRunText(call) };
  },
};
