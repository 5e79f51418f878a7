/**
 * How large one update's input may be. Temporal answers every update with a protocol message that carries the
 * whole original request, accepted or rejected, and a workflow task completion holding a message body over the
 * server's blob limit (2 MiB by default) fails — again on every retry, so the conversation stops answering. An input
 * over this bound is therefore never answered by the workflow: the server rejects it as unprocessed, and
 * `ConversationClient` refuses it before sending. The 32 KiB under 2 MiB cover the request envelope, the failure a
 * rejection adds (its message is bounded, see `MAX_FAILURE_MESSAGE`), and an encrypting codec's few bytes.
 */
export const MAX_UPDATE_INPUT_BYTES = 2_064_384; // 2 MiB − 32 KiB
