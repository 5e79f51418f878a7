// The workflows this worker registers. Workflow code imports activity types only (no I/O in the bundle).
export { conversationWorkflow } from './conversation';
export { compactingAgentWorkflow } from './agent-loop-example';
