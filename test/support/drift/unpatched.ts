// Workflow bundle entry: the conversation workflow with a change of logic made without `patched()` (see drift.ts).
import { driftedConversationWorkflow } from './drift';

export const conversationWorkflow = driftedConversationWorkflow(false);
