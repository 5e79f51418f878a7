// The workflows the production worker registers: the conversation workflow only. Workflow code imports activity
// types only (no I/O in the bundle). The embedding example (test/support/agent-loop-example.ts) is registered by tests only, so a
// caller cannot start it on a production task queue.
export { conversationWorkflow } from './conversation/conversation';
