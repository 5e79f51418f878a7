/**
 * The start argument of `conversationWorkflow`: its type, the check of its shape, and its JSON Schema, from one
 * schema. Its `settings` are checked by `mergeSettings` (their schema is `schemas/settings.ts`), its
 * `carried` state by `checkCarried` (`workflows/conversation/carried-schema.ts`), and the id against the workflow id by `checkStartInput`.
 */
import * as z from 'zod/v4-mini';
import { FORMER_TYPED_FORMAT_NAME, MESSAGE_FORMATS, type MessageFormatName } from '../../core/messages/format-name';
import type { SettingsPatch } from '../settings';
import { limitsPatch } from './limits';
import { says } from './leaves';

/** The format names a start input (and a carried state) may give: the formats, and the typed format's former name. */
export const formatNames: [MessageFormatName, ...MessageFormatName[]] = [
  MESSAGE_FORMATS[0]!,
  ...MESSAGE_FORMATS.slice(1),
  FORMER_TYPED_FORMAT_NAME,
];

/** Start input of `conversationWorkflow`. */
export const startFields = z.strictObject(
  {
    /** The conversation; may be omitted (it is the workflow id without `conversation-`), and must match it. */
    conversationId: z.optional(z.string(says('must be a string'))),
    /** Settings of a new conversation (see `ConversationSettings`). */
    settings: z.optional(z.custom<SettingsPatch>()),
    /** Run limits of a new conversation (see `RunLimits`). */
    limits: z.optional(limitsPatch),
    /**
     * The wire format of the conversation's messages. When omitted, the first messages decide, and a conversation read
     * as chat (plain `{role, content}` messages fit both) becomes Responses when Responses items arrive. `'s0'`, the
     * typed format's former name, still means `'typed'`.
     */
    format: z.optional(z.enum(formatNames, says(`must be one of ${MESSAGE_FORMATS.join(', ')}`))),
    /**
     * Set by continue-as-new only: the previous run's state, which the workflow checks and reads (its shape is the
     * workflow's own business, so callers never set it).
     */
    carried: z.optional(z.looseObject({}, says('must be the state a previous run handed over'))),
    /** The protocol version the caller speaks (`PROTOCOL_VERSION`); absent means the current one. */
    protocol: z.optional(z.number()),
  },
  says('must be an object {conversationId?, settings?, limits?, format?}')
);

/** The start input; `carried` is the workflow's own `CarriedState`, typed `object` for callers. */
export type ConversationInput = Omit<z.infer<typeof startFields>, 'carried'> & { carried?: object };
