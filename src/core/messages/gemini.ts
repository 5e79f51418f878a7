/**
 * Gemini `contents`: `{role: 'user' | 'model', parts}` where each part holds exactly one of `text`, `inlineData`,
 * `fileData`, `functionCall`, `functionResponse`, `executableCode`, `codeExecutionResult` (plus the optional `thought`,
 * `thoughtSignature`, `videoMetadata`, `partMetadata`, `mediaResolution`). The system instruction is not a content in
 * this API: a conversation holds it as a leading `{role: 'system', parts}` element, which `toGeminiRequest` moves into
 * `systemInstruction` when sending. A user turn of `functionResponse` parts answers the `functionCall` parts of the
 * model turn before it, by `id`, or by name and order when ids are absent. A model turn carrying a thought signature is
 * never edited: `withText` returns it as it is.
 */
import type { FormatAdapter } from './format-adapter';
import { resultIdFields } from './pair';
import { isMarkedSummary, markedSummaryText, notRunText } from './text';
import type { Item, ToolCall } from './types';
import { TranscriptValidationError, describe, expectRoleMessage, isRecord, requireString } from './validate';

const GEMINI_ROLES = ['user', 'model', 'system'] as const;

/** A Gemini content (or the conversation's system element); other fields are carried along untouched. */
export type GeminiContent = Record<string, unknown> & { role: string; parts: unknown[] };

/** The fields of which a Gemini part holds exactly one (the API's `Part` union). */
export const DATA_FIELDS = [
  'text',
  'inlineData',
  'fileData',
  'functionCall',
  'functionResponse',
  'executableCode',
  'codeExecutionResult',
] as const;
type DataField = (typeof DATA_FIELDS)[number];

/** Fields a part may carry besides its data field. */
const PART_METADATA = new Set(['thought', 'thoughtSignature', 'videoMetadata', 'partMetadata', 'mediaResolution']);

/** `ToolCall.kind` of a call that had no `id`: its id here is made up from its name and order in the turn. */
export const GEMINI_UNNAMED_CALL = 'functionCall-without-id';

/**
 * The data field of part `p` of element `index`.
 * @throws TranscriptValidationError when the part is not an object, holds no known data field, or holds two.
 */
function dataField(part: unknown, index: number, p: number): DataField {
  if (!isRecord(part)) {
    throw new TranscriptValidationError(index, `parts[${p}] must be an object, found ${describe(part)}`, 'wrong-type');
  }
  const found = DATA_FIELDS.filter((f) => part[f] !== undefined);
  const unknown = Object.keys(part).filter(
    (k) => !PART_METADATA.has(k) && !(DATA_FIELDS as readonly string[]).includes(k)
  );
  if (found.length !== 1 || unknown.length > 0) {
    const shape = Object.keys(part).join(', ') || 'no fields';
    throw new TranscriptValidationError(
      index,
      `parts[${p}] has an unknown shape (fields: ${shape}); a Gemini part holds exactly one of ${DATA_FIELDS.join(', ')}`,
      'wrong-type'
    );
  }
  const field = found[0]!;
  if (field === 'text' && typeof part.text !== 'string') {
    throw new TranscriptValidationError(
      index,
      `parts[${p}].text must be a string, found ${describe(part.text)}`,
      'wrong-type'
    );
  }
  if (field !== 'text' && !isRecord(part[field])) {
    throw new TranscriptValidationError(
      index,
      `parts[${p}].${field} must be an object, found ${describe(part[field])}`,
      'wrong-type'
    );
  }
  return field;
}

/** The id a call or response goes by: its own `id`, else `name#k` for the k-th id-less one of that name in the turn. */
function pairingId(
  fn: Record<string, unknown>,
  name: string,
  index: number,
  where: string,
  seen: Map<string, number>
): string {
  if (fn.id !== undefined) return requireString(fn, 'id', index, where);
  const k = seen.get(name) ?? 0;
  seen.set(name, k + 1);
  return `${name}#${k}`;
}

/** True when a model turn carries a thought or a thought signature (the provider checks it byte for byte). */
export function isSignedGeminiTurn(raw: Record<string, unknown>): boolean {
  return (
    Array.isArray(raw.parts) &&
    raw.parts.some((p) => isRecord(p) && (p.thoughtSignature !== undefined || p.thought === true))
  );
}

/** Prose of the parts: text parts that are not thoughts, joined by newlines. */
function partsText(parts: readonly unknown[]): string {
  return parts
    .filter((p): p is { text: string } => isRecord(p) && typeof p.text === 'string' && p.thought !== true)
    .map((p) => p.text)
    .join('\n');
}

/** Readable output of a functionResponse: its `response` as JSON. */
function responseText(fr: Record<string, unknown>): string {
  return JSON.stringify(fr.response ?? {}) ?? '';
}

/**
 * Reads a content's parts.
 * @throws TranscriptValidationError on a malformed part, or a part that does not belong in the role.
 */
function readParts(
  msg: Record<string, unknown>,
  role: string,
  index: number
): Omit<Item<GeminiContent>, 'index' | 'raw'> {
  const parts = msg.parts;
  if (!Array.isArray(parts) || parts.length === 0) {
    throw new TranscriptValidationError(
      index,
      `field 'parts' must be a non-empty array, found ${describe(parts)}`,
      'wrong-type'
    );
  }
  const calls: ToolCall[] = [];
  const results: string[] = [];
  const callNames = new Map<string, number>();
  const resultNames = new Map<string, number>();
  parts.forEach((part: Record<string, unknown>, p) => {
    const field = dataField(part, index, p);
    const allowed =
      role === 'system'
        ? field === 'text'
        : role === 'user'
          ? field !== 'functionCall' && field !== 'executableCode'
          : field !== 'functionResponse';
    if (!allowed) {
      throw new TranscriptValidationError(
        index,
        `parts[${p}] is a ${field} part, which a '${role}' content cannot hold`,
        'wrong-type'
      );
    }
    if (field === 'functionCall' || field === 'functionResponse') {
      const fn = part[field] as Record<string, unknown>;
      const where = `parts[${p}].${field}`;
      const name = requireString(fn, 'name', index, where);
      if (field === 'functionCall') {
        const id = pairingId(fn, name, index, where, callNames);
        if (calls.some((c) => c.id === id)) {
          throw new TranscriptValidationError(
            index,
            `${where}: two calls in this turn share the id '${id}'`,
            'wrong-type'
          );
        }
        const kind = fn.id === undefined ? GEMINI_UNNAMED_CALL : 'functionCall';
        calls.push({ id, name, arguments: JSON.stringify(fn.args ?? {}), kind });
      } else {
        if (fn.response !== undefined && !isRecord(fn.response)) {
          throw new TranscriptValidationError(
            index,
            `${where}.response must be an object, found ${describe(fn.response)}`,
            'wrong-type'
          );
        }
        results.push(pairingId(fn, name, index, where, resultNames));
      }
    }
  });
  const text =
    results.length > 0
      ? (parts as unknown[])
          .map((p) => (isRecord(p) && isRecord(p.functionResponse) ? responseText(p.functionResponse) : ''))
          .filter(Boolean)
          .join('\n')
      : partsText(parts);
  if (role === 'system') return { role: 'instructions', turnStart: false, calls, text };
  if (role === 'model') return { role: 'assistant', turnStart: false, calls, text };
  if (results.length > 0) return { role: 'tool', turnStart: false, calls, ...resultIdFields(results), text };
  const summary = parts.length === 1 && isMarkedSummary(text);
  return { role: summary ? 'summary' : 'user', turnStart: !summary, calls, text };
}

/** A copy of parts with the prose replaced: the first non-thought text part takes `text`, later ones are dropped. */
function withPartsText(parts: readonly unknown[], text: string): unknown[] {
  const out: unknown[] = [];
  let placed = false;
  for (const part of parts) {
    const prose = isRecord(part) && typeof part.text === 'string' && part.thought !== true;
    if (!prose) out.push(part);
    else if (!placed) {
      out.push({ ...part, text });
      placed = true;
    }
  }
  if (!placed) out.unshift({ text });
  return out;
}

/** The Gemini adapter. */
export const geminiAdapter: FormatAdapter<GeminiContent> = {
  format: 'gemini',

  toItem(raw: unknown, index: number): Item<GeminiContent> {
    const { msg, role } = expectRoleMessage(
      raw,
      index,
      GEMINI_ROLES,
      'Gemini: user, model; system for the system instruction'
    );
    return { index, ...readParts(msg, role, index), raw: msg as GeminiContent };
  },

  withToolOutput(raw, text) {
    const parts = raw.parts.map((p) =>
      isRecord(p) && isRecord(p.functionResponse)
        ? { ...p, functionResponse: { ...withoutParts(p.functionResponse), response: { output: text } } }
        : p
    );
    return { ...raw, parts };
  },

  withText(raw, text) {
    if (isSignedGeminiTurn(raw)) return raw;
    return { ...raw, parts: withPartsText(raw.parts, text) };
  },

  summaryItem(text, meta) {
    return { role: 'user', parts: [{ text: markedSummaryText(text, meta) }] };
  },

  notRunResult(call) {
    const id = call.kind === GEMINI_UNNAMED_CALL ? {} : { id: call.id };
    return {
      role: 'user',
      parts: [{ functionResponse: { ...id, name: call.name, response: { error: notRunText(call) } } }],
    };
  },
};

/** A functionResponse without its multimodal `parts` (they belong to the output being replaced). */
function withoutParts(fr: Record<string, unknown>): Record<string, unknown> {
  const { parts: _parts, ...rest } = fr;
  return rest;
}

/** A Gemini request body's conversation fields. */
export interface GeminiRequestContents {
  systemInstruction?: { parts: unknown[] };
  contents: unknown[];
}

/**
 * A context (as `context()` returns it) as Gemini's `generateContent` takes it: the `system` elements joined into
 * `systemInstruction`, and adjacent user turns (a summary followed by the kept part's first user turn) joined into one
 * turn so roles alternate. Model turns are passed on as they are (their signatures are checked by the provider).
 * @returns a new object; the elements it holds are the context's own, except joined user turns.
 */
export function toGeminiRequest(context: readonly unknown[]): GeminiRequestContents {
  const system: unknown[] = [];
  const contents: unknown[] = [];
  for (const el of context) {
    if (!isRecord(el)) continue;
    if (el.role === 'system' && Array.isArray(el.parts)) {
      system.push(...(el.parts as unknown[]));
      continue;
    }
    const last = contents.at(-1);
    if (
      el.role === 'user' &&
      isRecord(last) &&
      last.role === 'user' &&
      Array.isArray(last.parts) &&
      Array.isArray(el.parts)
    ) {
      contents[contents.length - 1] = { ...last, parts: [...(last.parts as unknown[]), ...(el.parts as unknown[])] };
    } else contents.push(el);
  }
  return system.length > 0 ? { systemInstruction: { parts: system }, contents } : { contents };
}
