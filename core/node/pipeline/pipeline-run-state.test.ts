import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempWorkspace } from '../../../tests/helpers/temp-workspace';
import { requestRun } from '../runs/run-control';
import { readRunState, writeRunState } from './pipeline-run-state';

describe('the state files other processes read', () => {
  let root = '';
  let cleanup = () => {};
  let outside = '';
  beforeEach(() => {
    ({ root, cleanup } = tempWorkspace('crucible-pipeline-state-'));
    outside = join(root, 'outside.txt');
    writeFileSync(outside, 'not the app’s\n');
  });
  afterEach(() => cleanup());

  it('writes pipeline.json whole without writing through a link planted at a guessable temp name', () => {
    mkdirSync(join(root, '.crucible'));
    symlinkSync(outside, join(root, '.crucible', `pipeline.json.${process.pid}.tmp`));
    const now = new Date('2026-03-05T09:00:00Z');
    writeRunState(root, true, now);
    expect({ state: readRunState(root), outside: readFileSync(outside, 'utf8') }).toEqual({
      state: { running: true, at: now.toISOString(), pid: process.pid },
      outside: 'not the app’s\n',
    });
  });

  it('writes a run-control request the same way', () => {
    const id = '01JTESTRUN0000000000000000';
    mkdirSync(join(root, '.crucible', 'runs'), { recursive: true });
    symlinkSync(outside, join(root, '.crucible', 'runs', `${id}.control.${process.pid}.tmp`));
    requestRun(root, id, 'pause');
    const request = JSON.parse(readFileSync(join(root, '.crucible', 'runs', `${id}.control`), 'utf8'));
    expect({ action: request.action, from: request.from, outside: readFileSync(outside, 'utf8') }).toEqual({
      action: 'pause',
      from: process.pid,
      outside: 'not the app’s\n',
    });
  });
});
