import { Worker } from 'node:worker_threads';
import { runStatJob, type StatJob } from '../../core/node/fs/shared-stats';

/**
 * Runs a whole stat job on a helper thread of its own, from the job's own source as the index
 * check's worker does, and returns once the helper is done: everything the caller then looks up
 * crossed through shared memory.
 */
export function statAllInHelper(job: StatJob): void {
  const flag = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(
    `const __name = (target) => target;
     const { workerData } = require('node:worker_threads');
     const { statSync } = require('node:fs');
     (${runStatJob.toString()})(statSync, workerData.job);
     const flag = new Int32Array(workerData.flag);
     Atomics.store(flag, 0, 1);
     Atomics.notify(flag, 0);`,
    { eval: true, workerData: { job, flag: flag.buffer } },
  );
  worker.unref();
  if (Atomics.wait(flag, 0, 0, 20_000) === 'timed-out') throw new Error('the helper thread never finished its stats');
}
