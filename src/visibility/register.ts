/**
 * Makes sure a namespace knows the conversations' search attributes. The embedded dev server is started with them;
 * a reused dev server or a self-hosted cluster gets the missing ones added through the operator service; where that
 * is not allowed (Temporal Cloud, a restricted role) the caller is told which command to run.
 */
import type { NativeConnection } from '@temporalio/worker';
import { conversationSearchAttributes } from './search-attributes';

/** Operator-service index types (temporal.api.enums.v1.IndexedValueType). */
const INDEXED_VALUE_TYPE = { Keyword: 2, Int: 3 } as const;

/** Outcome of {@link ensureSearchAttributes}. */
export interface SearchAttributesStatus {
  /** Attributes that were missing and are now registered. */
  added: string[];
  /** Attributes still missing (could not be added); empty when all are in place. */
  missing: string[];
  /** When `missing` is not empty: the commands that register them, and the server's reason. */
  hint?: string;
}

/** @returns the `temporal operator search-attribute create` commands for `names` in `namespace`. */
export function createCommands(namespace: string, names: readonly string[]): string[] {
  return conversationSearchAttributes
    .filter((a) => names.includes(a.key.name))
    .map(
      (a) =>
        `temporal operator search-attribute create --namespace ${namespace} --name ${a.key.name} --type ${a.cliType}`
    );
}

/**
 * Lists the namespace's search attributes and adds the conversations' missing ones.
 * @returns what was added and what is still missing (never throws for a refused add: the worker keeps running, and
 *   clients that start conversations with search attributes get the server's refusal).
 */
export async function ensureSearchAttributes(
  connection: NativeConnection,
  namespace: string
): Promise<SearchAttributesStatus> {
  const known = async (): Promise<Set<string>> => {
    const listed = await connection.operatorService.listSearchAttributes({ namespace });
    return new Set([...Object.keys(listed.customAttributes ?? {}), ...Object.keys(listed.systemAttributes ?? {})]);
  };
  let have: Set<string>;
  try {
    have = await known();
  } catch (err) {
    const all = conversationSearchAttributes.map((a) => a.key.name);
    return { added: [], missing: all, hint: hintFor(namespace, all, err) };
  }
  const missing = conversationSearchAttributes.filter((a) => !have.has(a.key.name));
  if (missing.length === 0) return { added: [], missing: [] };
  try {
    await connection.operatorService.addSearchAttributes({
      namespace,
      searchAttributes: Object.fromEntries(missing.map((a) => [a.key.name, INDEXED_VALUE_TYPE[a.cliType]])),
    });
  } catch (err) {
    const names = missing.map((a) => a.key.name);
    return { added: [], missing: names, hint: hintFor(namespace, names, err) };
  }
  return { added: missing.map((a) => a.key.name), missing: [] };
}

function hintFor(namespace: string, names: string[], err: unknown): string {
  const reason = err instanceof Error ? err.message : String(err);
  return `could not register search attributes (${reason}); run:\n  ${createCommands(namespace, names).join('\n  ')}`;
}
