/**
 * The package's main entry (`import … from 'durable-compaction'`): the client an agent backend uses, its errors, and
 * the protocol's types. Nothing else of the implementation is reachable through the package (its `exports` map).
 */
export { ConversationClient, InvalidConversationId, InvalidWriterId } from './conversation-client';
export type { ConversationClientOptions, Prepared } from './conversation-client';
export { ConversationUnavailableError, ConversationUpdateError, type Stored } from './errors';
export { connectClient, type ConnectClientOptions } from './connect';
export { FoldWatcher, type FoldProgressEvent } from './fold-progress';
export { SettingsError } from '../contract/settings';
export * from '../contract/public';
