// Root hooks for mocha. The shared Temporal dev server is started lazily by test/support/temporal.ts on first use and
// torn down here, once per test run.
import { stopSharedTestEnv } from '../support/temporal';

export const mochaHooks = {
  async afterAll(): Promise<void> {
    await stopSharedTestEnv();
  },
};
