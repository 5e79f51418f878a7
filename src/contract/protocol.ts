/**
 * The whole wire protocol as one type: every start argument, update, signal and query with its argument and result.
 * `schema/protocol.schema.json` is generated from the same sources (`npm run schema`; a test checks the file is
 * current): the arguments from their schemas (src/contract/schemas), the results from {@link ProtocolResults}.
 */
import type { FoldRecord } from '../core/fold/fold-record';
import type {
  AppendInput,
  ContextSnapshot,
  ConversationInput,
  ConversationStateView,
  DeleteResult,
  PrepareResult,
  RewindInput,
  RewindResult,
  WaitForFoldInput,
  WaitForFoldResult,
} from './definitions';
import type { ConversationSettings, SettingsPatch } from './settings';
import type { CompactNowInput, CompactNowResult } from './compact-now';

/** The result of `clear` and `close`: the context version after the call. */
export interface VersionResult {
  version: number;
}

/**
 * Every message of `conversationWorkflow`, by kind and name: `argument` is what the caller sends (`null`: nothing),
 * `result` what comes back (`null`: nothing).
 */
export interface ConversationProtocol {
  /** The version these shapes belong to (`PROTOCOL_VERSION`). */
  protocol: 1;
  /** Workflow type `conversationWorkflow`, id `conversation-<conversationId>`: its start argument and its result. */
  workflow: { argument: ConversationInput; result: ConversationStateView };
  updates: {
    prepare: { argument: AppendInput; result: PrepareResult };
    append: { argument: AppendInput; result: PrepareResult };
    rewind: { argument: RewindInput | null; result: RewindResult };
    clear: { argument: null; result: VersionResult };
    configure: { argument: SettingsPatch; result: ConversationSettings };
    close: { argument: null; result: VersionResult };
    delete: { argument: null; result: DeleteResult };
    waitForFold: { argument: WaitForFoldInput | null; result: WaitForFoldResult };
    compactNow: { argument: CompactNowInput | null; result: CompactNowResult };
  };
  signals: {
    append: { argument: AppendInput; result: null };
  };
  queries: {
    context: { argument: null; result: ContextSnapshot };
    sendable: { argument: null; result: ContextSnapshot };
    state: { argument: null; result: ConversationStateView };
    folds: { argument: null; result: FoldRecord[] };
    /** The argument is a writer id. */
    writerSeq: { argument: string; result: number };
  };
}

/**
 * The shapes whose JSON Schema comes from their TypeScript types (scripts/protocol-schema.ts reads this type): every
 * result, and the settings patch of `configure` and the start argument. Each key is a definition's name.
 */
export interface ProtocolResults {
  ConversationStateView: ConversationStateView;
  PrepareResult: PrepareResult;
  RewindResult: RewindResult;
  VersionResult: VersionResult;
  ConversationSettings: ConversationSettings;
  DeleteResult: DeleteResult;
  WaitForFoldResult: WaitForFoldResult;
  CompactNowResult: CompactNowResult;
  ContextSnapshot: ContextSnapshot;
  FoldRecord: FoldRecord;
  SettingsPatch: SettingsPatch;
}
