/**
 * The protocol as a package entry (`durable-compaction/contract`): the workflow's name, update/signal/query
 * definitions, the shapes they carry, the failure types, the protocol version. Also re-exported by the main entry.
 */
// Everything definitions.ts exports is protocol: the names, the definitions and the shapes they carry.
export * from './definitions';
export type { ConversationProtocol, VersionResult } from './protocol';
export { compactNowUpdate, MAX_FOCUS_CHARS, type CompactNowInput, type CompactNowResult } from './compact-now';
export { FailureType, FAILURE_TYPES, type FailureTypeName } from './failures';
export { PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from './protocol-version';
export type { ConversationSettings, RunLimits, SettingsPatch, SummarizerSettings, PlanSettings } from './settings';
export type { PrefixReuse } from './prefix-reuse';
export type { FoldRecord } from '../core/fold/fold-record';
export type { MessageFormat, Usage } from '../core/messages/types';
export type { MessageFormatName } from '../core/messages/format-name';
