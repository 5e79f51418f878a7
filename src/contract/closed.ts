/**
 * A call on a conversation that `close` has ended (the workflow is finishing its last handlers): refused with the
 * documented `ConversationClosed` failure type, nothing changes. Once the workflow has completed, the server itself
 * refuses updates to it.
 */
export class ConversationClosed extends Error {
  override readonly name = 'ConversationClosed';
  constructor() {
    super('the conversation is closed');
  }
}
