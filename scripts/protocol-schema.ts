/**
 * Generates the protocol's JSON Schema from the TypeScript contract (`ConversationProtocol` in
 * src/contract/protocol.ts) with ts-json-schema-generator. `npm run schema` writes schema/protocol.schema.json;
 * test/contract/protocol-schema.test.ts fails when the checked-in file differs from what this generates.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createGenerator } from 'ts-json-schema-generator';
import { PROTOCOL_VERSION } from '../src/contract/protocol-version';

const root = resolve(__dirname, '..');

/** The checked-in schema file. */
export const PROTOCOL_SCHEMA_PATH = resolve(root, 'schema', 'protocol.schema.json');

/** @returns the schema's text as it should be checked in (stable: same contract, same bytes). */
export function generateProtocolSchema(): string {
  const schema = createGenerator({
    path: resolve(root, 'src', 'contract', 'protocol.ts'),
    tsconfig: resolve(root, 'tsconfig.json'),
    type: 'ConversationProtocol',
    // `npm run typecheck` checks the sources; the generator only reads their types.
    skipTypeCheck: true,
    // The workflow refuses unknown keys, so the schema does too.
    additionalProperties: false,
  }).createSchema('ConversationProtocol');
  const withId = {
    $id: `https://durable-compaction/protocol/v${PROTOCOL_VERSION}.schema.json`,
    title: `durable-compaction protocol ${PROTOCOL_VERSION}`,
    ...schema,
  };
  return JSON.stringify(withId, null, 2) + '\n';
}

if (require.main === module) {
  writeFileSync(PROTOCOL_SCHEMA_PATH, generateProtocolSchema());
  console.log(`wrote ${PROTOCOL_SCHEMA_PATH}`);
}
