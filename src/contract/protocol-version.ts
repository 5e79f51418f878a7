/**
 * The protocol version: what a client says it speaks, in the start argument and every append (`protocol`). A worker
 * serves the versions in {@link SUPPORTED_PROTOCOL_VERSIONS}; an absent `protocol` means the current one, so callers
 * written before it existed, and recorded histories, keep working. Compatibility policy: docs/protocol.md.
 */

/** The version this package's client sends. */
export const PROTOCOL_VERSION = 1;

/** The versions this worker's workflow accepts. */
export const SUPPORTED_PROTOCOL_VERSIONS: readonly number[] = [PROTOCOL_VERSION];

/** A caller sent a protocol version this worker does not speak (failure type `UnsupportedProtocol`). */
export class UnsupportedProtocol extends Error {
  override readonly name = 'UnsupportedProtocol';
}

/**
 * Checks the `protocol` field of a start argument or an append input (`where` names it in the message).
 * @throws UnsupportedProtocol when `protocol` is present and not a supported version.
 */
export function checkProtocol(protocol: unknown, where: string): void {
  if (protocol === undefined || SUPPORTED_PROTOCOL_VERSIONS.includes(protocol as number)) return;
  const shown = typeof protocol === 'number' ? String(protocol) : (JSON.stringify(protocol) ?? typeof protocol);
  throw new UnsupportedProtocol(
    `${where}: protocol ${shown} is not supported by this worker (it speaks ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}; omit protocol for the current one)`
  );
}
