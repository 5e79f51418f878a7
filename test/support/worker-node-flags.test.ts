import { strict as assert } from 'node:assert';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sharedTestEnv } from './temporal';
import { startWorker } from './crash';
import { stopWorker } from './spawn-worker';

describe('test/support/crash: DC_WORKER_NODE_FLAGS', function () {
  this.timeout(60_000);

  it('passes Node flags Node refuses in NODE_OPTIONS to a worker process (a CPU profile per thread)', async () => {
    const env = await sharedTestEnv();
    const dir = mkdtempSync(join(tmpdir(), 'dc-worker-flags-'));
    const worker = await startWorker({
      TEMPORAL_ADDRESS: env.address,
      TASK_QUEUE: `worker-flags-${process.pid}-${Date.now()}`,
      ARCHIVE_DRIVER: 'sqlite',
      ARCHIVE_PATH: join(dir, 'archive.sqlite'),
      DC_WORKER_NODE_FLAGS: `--cpu-prof --cpu-prof-dir=${join(dir, 'profiles')}`,
    });
    await stopWorker(worker);
    const profiles = readdirSync(join(dir, 'profiles')).filter((f) => f.endsWith('.cpuprofile'));
    // The main thread and each workflow thread write one on a clean exit.
    assert.ok(profiles.length >= 2, `profiles written: ${profiles.join(', ') || 'none'}`);
  });
});
