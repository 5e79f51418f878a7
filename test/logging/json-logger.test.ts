import { strict as assert } from 'node:assert';
import { StructuredLogger } from '../../src/logging/json-logger';

function capture(options: ConstructorParameters<typeof StructuredLogger>[0] = {}) {
  const lines: string[] = [];
  return { lines, logger: new StructuredLogger({ ...options, write: (l) => lines.push(l) }) };
}

describe('StructuredLogger', () => {
  it('writes one JSON object per line with the conversation id and run id of workflow and activity lines', () => {
    const { lines, logger } = capture();
    logger.info('fold applied', {
      sdkComponent: 'workflow',
      workflowId: 'conversation-abc',
      runId: 'r1',
      tokensBefore: 100,
    });
    logger.warn('retrying', {
      sdkComponent: 'activity',
      workflowId: 'conversation-x',
      workflowRunId: 'r2',
      taskToken: 'secret-ish',
    });
    const [a, b] = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.equal(a!.msg, 'fold applied');
    assert.equal(a!.level, 'info');
    assert.equal(a!.conversationId, 'abc');
    assert.equal(a!.runId, 'r1');
    assert.equal(a!.component, 'workflow');
    assert.equal(a!.tokensBefore, 100);
    assert.ok(!Number.isNaN(Date.parse(a!.time as string)));
    assert.equal(b!.conversationId, 'x');
    assert.equal(b!.runId, 'r2');
    assert.equal(b!.taskToken, undefined, 'task tokens are not logged');
  });

  it('filters by level; the SDK’s own components start at warn unless debug', () => {
    const { lines, logger } = capture({ level: 'info' });
    logger.debug('hidden');
    logger.info('bundle built', { sdkComponent: 'worker' });
    logger.warn('worker warning', { sdkComponent: 'worker' });
    logger.info('ours');
    assert.deepEqual(
      lines.map((l) => (JSON.parse(l) as { msg: string }).msg),
      ['worker warning', 'ours']
    );
    const debug = capture({ level: 'debug' });
    debug.logger.info('bundle built', { sdkComponent: 'worker' });
    debug.logger.trace('too low');
    assert.equal(debug.lines.length, 1);
    const quiet = capture({ level: 'error' });
    quiet.logger.warn('no');
    quiet.logger.error('yes', { err: new Error('boom') });
    assert.deepEqual(JSON.parse(quiet.lines[0]!).err, { name: 'Error', message: 'boom' });
  });

  it('writes key=value text when asked', () => {
    const { lines, logger } = capture({ format: 'text' });
    logger.info('fold applied', { workflowId: 'conversation-abc', runId: 'r1', fold: 2 });
    assert.match(lines[0]!, /^\S+Z INFO fold applied conversationId=abc workflowId=conversation-abc runId=r1 fold=2$/);
  });
});
