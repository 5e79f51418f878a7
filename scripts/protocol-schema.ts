/**
 * Generates the protocol's JSON Schema: every argument from its schema (src/contract/schemas, `z.toJSONSchema`), every
 * result and the settings patch from their TypeScript types (`ProtocolResults` in src/contract/protocol.ts, with
 * ts-json-schema-generator), joined under `#/definitions/ConversationProtocol` as the type `ConversationProtocol`
 * is. `npm run schema` writes schema/protocol.schema.json; test/contract/protocol-schema.test.ts fails when the
 * checked-in file differs from what this generates.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createGenerator } from 'ts-json-schema-generator';
import * as z from 'zod/v4-mini';
import { PROTOCOL_VERSION } from '../src/contract/protocol-version';
import { appendFields } from '../src/contract/schemas/append';
import { compactNowFields } from '../src/contract/schemas/compact-now';
import { rewindFields } from '../src/contract/schemas/rewind';
import { settingsPatchShape } from '../src/contract/schemas/settings';
import { startFields } from '../src/contract/schemas/start';
import { waitForFoldFields } from '../src/contract/schemas/wait-for-fold';
import { writerId } from '../src/contract/schemas/writer-seq';

const root = resolve(__dirname, '..');

/** The checked-in schema file. */
export const PROTOCOL_SCHEMA_PATH = resolve(root, 'schema', 'protocol.schema.json');

type Json = Record<string, unknown>;

const ref = (name: string): Json => ({ $ref: `#/definitions/${name}` });
const orNull = (schema: Json): Json => ({ anyOf: [schema, { type: 'null' }] });
const none: Json = { type: 'null' };

/** @returns a schema's JSON Schema (draft 07, what a caller may send), without its own `$schema`. */
function fromSchema(schema: z.core.$ZodType): Json {
  const { $schema: _, ...json } = z.toJSONSchema(schema, { target: 'draft-7', io: 'input', unrepresentable: 'any' });
  return json;
}

/** @returns `{argument, result}` as the protocol type writes it. */
function message(argument: Json, result: Json): Json {
  return {
    type: 'object',
    properties: { argument, result },
    required: ['argument', 'result'],
    additionalProperties: false,
  };
}

function group(messages: Record<string, Json>): Json {
  return {
    type: 'object',
    properties: messages,
    required: Object.keys(messages),
    additionalProperties: false,
  };
}

/** The argument definitions, from the schemas the workflow checks with. */
function argumentDefinitions(): Record<string, Json> {
  const start = fromSchema(startFields) as { properties: Json };
  // The start settings are checked by `mergeSettings`: their shape is the settings patch's.
  start.properties.settings = ref('SettingsPatch');
  return {
    ConversationInput: start,
    AppendInput: fromSchema(appendFields),
    RewindInput: fromSchema(rewindFields),
    WaitForFoldInput: fromSchema(waitForFoldFields),
    CompactNowInput: fromSchema(compactNowFields),
  };
}

/** @returns the schema's text as it should be checked in (stable: same contract, same bytes). */
export function generateProtocolSchema(): string {
  const types = createGenerator({
    path: resolve(root, 'src', 'contract', 'protocol.ts'),
    tsconfig: resolve(root, 'tsconfig.json'),
    type: 'ProtocolResults',
    // `npm run typecheck` checks the sources; the generator only reads their types.
    skipTypeCheck: true,
    // The workflow refuses unknown keys, so the schema does too.
    additionalProperties: false,
  }).createSchema('ProtocolResults');
  const { ProtocolResults: _, ...resultDefinitions } = types.definitions ?? {};
  // Every field's bounds live in the settings schema (the TypeScript type only says `number`); the type adds the
  // descriptions from its TSDoc.
  const patch = resultDefinitions.SettingsPatch as { properties: Json } | undefined;
  const checked = fromSchema(settingsPatchShape).properties as Json;
  for (const [key, schema] of Object.entries(checked)) {
    if (!patch) continue;
    // A reference to the type's own definition would stand beside the schema's inline one; the inline one checks more.
    const { $ref: _, ...described } = (patch.properties[key] ?? {}) as Json;
    patch.properties[key] = { ...described, ...(schema as Json) };
  }
  const protocol: Json = {
    type: 'object',
    properties: {
      protocol: { type: 'number', const: PROTOCOL_VERSION, description: 'The version these shapes belong to.' },
      workflow: message(ref('ConversationInput'), ref('ConversationStateView')),
      updates: group({
        prepare: message(ref('AppendInput'), ref('PrepareResult')),
        append: message(ref('AppendInput'), ref('PrepareResult')),
        rewind: message(orNull(ref('RewindInput')), ref('RewindResult')),
        clear: message(none, ref('VersionResult')),
        configure: message(ref('SettingsPatch'), ref('ConversationSettings')),
        close: message(none, ref('VersionResult')),
        delete: message(none, ref('DeleteResult')),
        waitForFold: message(orNull(ref('WaitForFoldInput')), ref('WaitForFoldResult')),
        compactNow: message(orNull(ref('CompactNowInput')), ref('CompactNowResult')),
      }),
      signals: group({ append: message(ref('AppendInput'), none) }),
      queries: group({
        context: message(none, ref('ContextSnapshot')),
        sendable: message(none, ref('ContextSnapshot')),
        state: message(none, ref('ConversationStateView')),
        folds: message(none, { type: 'array', items: ref('FoldRecord') }),
        writerSeq: message(fromSchema(writerId), { type: 'number' }),
      }),
    },
    required: ['protocol', 'workflow', 'updates', 'signals', 'queries'],
    additionalProperties: false,
  };
  const definitions = { ...resultDefinitions, ...argumentDefinitions(), ConversationProtocol: protocol };
  const sorted = Object.fromEntries(Object.entries(definitions).sort(([a], [b]) => a.localeCompare(b)));
  const schema = {
    $id: `https://durable-compaction/protocol/v${PROTOCOL_VERSION}.schema.json`,
    title: `durable-compaction protocol ${PROTOCOL_VERSION}`,
    $schema: 'http://json-schema.org/draft-07/schema#',
    $ref: '#/definitions/ConversationProtocol',
    definitions: sorted,
  };
  return JSON.stringify(schema, null, 2) + '\n';
}

if (require.main === module) {
  writeFileSync(PROTOCOL_SCHEMA_PATH, generateProtocolSchema());
  console.log(`wrote ${PROTOCOL_SCHEMA_PATH}`);
}
