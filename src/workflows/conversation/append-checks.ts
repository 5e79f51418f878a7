/**
 * Append checks that need the conversation's state, run by the update validator before anything is stored: a usage
 * report for a context that does not exist yet, a shared `clientSeq` that skips ahead, a sequence number or message
 * id used again with other content, and a Responses item sent to a conversation that must stay chat.
 */
import type { AppendInput } from '../../contract/definitions';
import { canonicalJson, sha256Hex } from '../../core/hash';
import { show } from '../../contract/show-value';
import { AppendRejected, messageId, type StagedAppend } from './conversation-state';
import type { ReadonlyCarriedState } from './carried-state';
import { OutOfOrderAppend } from './writers';

/** @returns the refusal of a `reported.version` above the current version (no context of it was returned), or undefined. */
export function reportedAhead(input: AppendInput, version: number): AppendRejected | undefined {
  const reported = input.reported?.version;
  if (reported === undefined || reported <= version) return undefined;
  return new AppendRejected(
    `reported.version ${reported} is ahead of the conversation (version ${version}): usage can only be reported for a context prepare returned`
  );
}

/**
 * The shared sequence (a `clientSeq` without `writer`) moves one append at a time, as a writer's does: a number further
 * ahead would make every later, smaller number look like a retry and be dropped.
 * @returns the refusal of a number that skips ahead, or undefined.
 */
export function sharedSeqAhead(
  input: AppendInput,
  carried: Pick<ReadonlyCarriedState, 'lastClientSeq'>
): OutOfOrderAppend | undefined {
  const seq = input.clientSeq;
  if (input.writer !== undefined || seq === undefined || seq <= carried.lastClientSeq + 1) return undefined;
  return new OutOfOrderAppend(
    `append ${seq} arrived before append ${carried.lastClientSeq + 1} of the shared clientSeq sequence; it was not applied (number appends 0, 1, 2, …)`
  );
}

/** Content part types only the Responses format has (a chat assistant's `refusal` part is chat too). */
const RESPONSES_ONLY_PARTS = new Set(['input_text', 'output_text', 'input_image', 'input_file']);

/** @returns what makes `m` a Responses (or typed) element rather than a chat message, or undefined. */
function foreignElement(m: unknown): string | undefined {
  if (typeof m !== 'object' || m === null) return undefined;
  const el = m as { type?: unknown; content?: unknown };
  if (el.type !== undefined) return `type ${show(el.type)}`;
  if (!Array.isArray(el.content)) return undefined;
  for (const part of el.content as unknown[]) {
    const type = (part as { type?: unknown } | null)?.type;
    if (typeof type === 'string' && RESPONSES_ONLY_PARTS.has(type)) return `a content part of type '${type}'`;
  }
  return undefined;
}

/**
 * Chat messages have no `type` and no Responses content parts; the chat reader would otherwise store such an item and
 * send it later as a chat message the provider refuses.
 * @returns the refusal naming the first such message of a chat append (its index in what the caller sent), or undefined.
 */
export function foreignToChat(staged: Pick<StagedAppend, 'messages' | 'sentIndex'>): string | undefined {
  for (let i = 0; i < staged.messages.length; i++) {
    const what = foreignElement(staged.messages[i]);
    if (what) {
      return `message ${staged.sentIndex[i] ?? i} has ${what}, which a chat message cannot have: this conversation is chat (its format is fixed or decided by earlier messages)`;
    }
  }
  return undefined;
}

/** @returns the hash of an append's messages as the caller sent them (key order does not matter). */
export function appendHash(messages: readonly unknown[]): string {
  return sha256Hex(canonicalJson(messages));
}

/** @returns the message without its `pin` flag (stored messages do not keep it), as canonical JSON. */
function contentOf(m: unknown): string {
  return canonicalJson(typeof m === 'object' && m !== null && !Array.isArray(m) ? { ...m, pin: undefined } : m);
}

/**
 * A retry sends what the first try sent. A number already applied, or a message id already stored, that comes with
 * other content is another append under a used name: skipping it as a retry would drop it silently. Decided where
 * the first content is still known: the writer's (or the shared sequence's) last number, and ids whose message is
 * live and unchanged (an older number, or an id folded away, is still taken for a retry).
 * @returns the refusal naming the conflict, or undefined.
 */
export function reusedWithOtherContent(
  input: AppendInput,
  carried: Pick<ReadonlyCarriedState, 'writers' | 'lastClientSeq' | 'lastClientHash' | 'live'>
): AppendRejected | undefined {
  const seq = input.clientSeq;
  if (seq !== undefined) {
    const entry = input.writer === undefined ? undefined : carried.writers.find(([w]) => w === input.writer);
    const [last, hash] =
      input.writer === undefined ? [carried.lastClientSeq, carried.lastClientHash] : [entry?.[1] ?? -1, entry?.[2]];
    if (seq < last) return undefined;
    if (seq === last) {
      if (hash === undefined || hash === appendHash(input.messages)) return undefined;
      const who = input.writer === undefined ? 'shared clientSeq' : `writer '${input.writer}'`;
      return new AppendRejected(
        `${who}: append ${seq} was applied already with other messages; nothing was stored (a retry sends the same messages, a new append the next number, ${last + 1})`
      );
    }
  }
  // Messages without ids (chat, typed messages without one) have nothing to compare: the stored ones are not read.
  if (!input.messages.some((m) => messageId(m) !== undefined)) return undefined;
  const live = new Map<string, unknown>();
  for (const e of carried.live) {
    const id = e.rev === 0 ? messageId(e.raw) : undefined;
    if (id !== undefined) live.set(id, e.raw);
  }
  if (live.size === 0) return undefined;
  for (let i = 0; i < input.messages.length; i++) {
    const id = messageId(input.messages[i]);
    const stored = id === undefined ? undefined : live.get(id);
    if (stored !== undefined && contentOf(stored) !== contentOf(input.messages[i])) {
      return new AppendRejected(
        `message ${i}: id '${id}' is stored already with other content; nothing was stored (a retry sends the same message, a new message needs a new id)`
      );
    }
  }
  return undefined;
}
