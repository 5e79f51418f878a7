// Root hooks for mocha. The shared Temporal dev server is started lazily by test/support/temporal.ts on first use and
// torn down here, once per test run.
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { stopSharedTestEnv } from '../support/temporal';

// Worker state changes are logged at INFO; tests only want warnings and errors. Installed before any worker,
// replayer or test environment creates the runtime.
Runtime.install({ logger: new DefaultLogger('WARN') });

export const mochaHooks = {
  async afterAll(): Promise<void> {
    await stopSharedTestEnv();
  },
};
