// The workflows test workers register: the production set plus the compactor's example agent loop.
export * from '../../src/workflows';
export { compactingAgentWorkflow } from './agent-loop-example';
