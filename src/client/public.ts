/**
 * The package's main entry (`import … from 'durable-compaction'`): the client an agent backend uses, its errors, and
 * the protocol's types. Nothing else of the implementation is reachable through the package (its `exports` map).
 */
export { ConversationClient, InvalidConversationId, InvalidWriterId } from './conversation-client';
export type { ConversationClientOptions, Prepared } from './conversation-client';
export type { DeletedConversation } from './delete-conversation';
export { ConversationUnavailableError, ConversationUpdateError, type Stored } from './errors';
export { connectClient, type ConnectClientOptions } from './connect';
export { FoldWatcher, type FoldProgressEvent } from './fold-progress';
export { SettingsError } from '../contract/settings';
export * from '../contract/public';
export { recallTool, RECALL_TOOL_NAME, type RecallToolFormat, type RecallToolShapes } from './recall-tool';
export { answerRecallCalls, recallCalls, recallQueryOf, recallToolResult } from './recall-answer';
export { RECALL_DEFAULTS, type RecallMatch, type RecallOptions, type RecallResult } from '../archive/recall';
export { RecallQueryError } from '../core/recall/query';
