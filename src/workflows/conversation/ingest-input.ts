import type { IngestInput } from '../../activities/types';
import type { ReadonlyCarriedState, StagedAppend } from './conversation-state';

/** The `ingest` activity's input for a staged append (archive from `firstSeq`, count and clip with these settings). */
export function ingestInput(s: ReadonlyCarriedState, staged: StagedAppend): IngestInput {
  return {
    conversationId: s.conversationId,
    format: staged.format,
    model: s.settings.model,
    budget: s.settings.budget,
    firstSeq: staged.firstSeq,
    messages: staged.messages,
  };
}
