// Workflow bundle entry: the same change of logic, gated by `patched()` as the project's changes are (see drift.ts).
import { driftedConversationWorkflow } from './drift';

export const conversationWorkflow = driftedConversationWorkflow(true);
