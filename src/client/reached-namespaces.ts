/**
 * The namespaces each Temporal `Client` object has reached. A namespace that answered does not stop existing, but
 * Temporal's frontend says it does ("Namespace not found") while its database restarts; so for a namespace the
 * caller's `Client` reached before, that answer is transient, also for a conversation client created afterwards (a
 * new conversation on a shared Temporal client). Held weakly: a dropped client drops its entry.
 */
const reached = new WeakMap<object, Set<string>>();

/** Notes that `namespace` answered a call made through `client`. */
export function noteReached(client: object, namespace: string): void {
  let names = reached.get(client);
  if (!names) reached.set(client, (names = new Set()));
  names.add(namespace);
}

/** @returns true when a call through `client` was answered by `namespace` before. */
export function hasReached(client: object, namespace: string): boolean {
  return reached.get(client)?.has(namespace) ?? false;
}
