import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DebateService } from '../../core/node/debates/debate-service';
import { Workspace } from '../../core/node/workspace/workspace';
import { eventually, tempWorkspace } from '../helpers/temp-workspace';

let root: string;
let cleanup: () => void;
let ws: Workspace;

beforeEach(() => {
  ({ root, cleanup } = tempWorkspace('crucible-taken-over-'));
  ws = Workspace.open(root);
  process.env.CRUCIBLE_SIMULATED_LATENCY_MS = '30';
});
afterEach(() => {
  delete process.env.CRUCIBLE_SIMULATED_LATENCY_MS;
  ws.close();
  cleanup();
});

describe('a debate whose run another process took over', () => {
  it('stops at its next append with one clear error and writes nothing more to the log', async () => {
    const service = new DebateService(ws);
    const run = service.start({ topic: 'Moss walls', agents: ['ethicist', 'field-researcher'], provider: 'simulated' });
    const lease = await eventually(
      () =>
        ws.db.prepare('SELECT run_id AS id, owner FROM run_leases').get() as { id: string; owner: string } | undefined,
      'the lease',
    );
    const logPath = join(root, 'debates', `${lease.id}.jsonl`);
    const lines = () => readFileSync(logPath, 'utf8').trimEnd().split('\n').length;
    await eventually(() => lines() >= 5, 'a few records');
    // What a second process does when this one looked gone (asleep past the bound): the row becomes its own.
    ws.db
      .prepare("UPDATE run_leases SET owner = 'other', pid = 1, heartbeat_ms = ? WHERE run_id = ?")
      .run(Date.now(), lease.id);
    const atTakeover = lines();
    const error = await run.then(
      () => null,
      (e: Error) => e.message,
    );
    expect({
      error,
      linesAfter: lines(),
      stillTheOthers: ws.db.prepare('SELECT owner FROM run_leases').pluck().all(),
    }).toEqual({
      error: expect.stringMatching(
        new RegExp(
          `^debate ${lease.id} was taken over by process 1 .*; this process stopped without writing to its log$`,
        ),
      ),
      linesAfter: atTakeover,
      stillTheOthers: ['other'],
    });
  });
});
