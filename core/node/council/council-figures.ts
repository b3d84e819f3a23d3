import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { type CouncilFigures, figuresOverTime, type TaskFigures, taskFigures } from '../../council/figures';
import { councilEntry } from '../../council/protocol';
import type { CouncilState } from '../../council/state';
import { NO_RESOURCES } from '../../engine/registry';
import { readDebateLog } from '../debates/journal';
import { foldRun } from '../runs/run-service';

/**
 * The council's figures over time, computed from its run logs (the one truth of every task: its
 * state, its calls and their cost), never from the index: `councils/<id>.jsonl` and
 * `ideas/<slug>/councils/<id>.jsonl`. A log that cannot be read is reported by path, and left out.
 */
function councilLogs(root: string): string[] {
  const inside = (dir: string) =>
    existsSync(join(root, dir))
      ? readdirSync(join(root, dir))
          .filter((n) => n.endsWith('.jsonl') && !n.startsWith('.'))
          .sort()
          .map((n) => `${dir}/${n}`)
      : [];
  const slugs = existsSync(join(root, 'ideas'))
    ? readdirSync(join(root, 'ideas'), { withFileTypes: true })
        .filter((e) => e.isDirectory() && !e.name.startsWith('.'))
        .map((e) => e.name)
        .sort()
    : [];
  return [...inside(councilEntry.folder), ...slugs.flatMap((slug) => inside(`ideas/${slug}/${councilEntry.folder}`))];
}

export function taskFiguresOfLog(root: string, rel: string): TaskFigures {
  const { records } = readDebateLog(root, rel);
  const first = records[0];
  if (first?.type !== 'run_created' || first.header.protocol !== councilEntry.name)
    throw new Error(`${rel} is not a council task's log`);
  const runner = foldRun(councilEntry, first.header, records, NO_RESOURCES);
  return taskFigures(first.header.id, runner.currentState as CouncilState, {
    startedAt: first.at,
    updatedAt: records[records.length - 1]?.at ?? first.at,
    calls: runner.usage.llmCalls,
    costUsd: runner.usage.costUsd,
  });
}

export function councilFigures(root: string): CouncilFigures & { problems: { file: string; reason: string }[] } {
  const tasks: TaskFigures[] = [];
  const problems: { file: string; reason: string }[] = [];
  for (const rel of councilLogs(root)) {
    try {
      tasks.push(taskFiguresOfLog(root, rel));
    } catch (error) {
      problems.push({ file: rel, reason: (error as Error).message });
    }
  }
  return { ...figuresOverTime(tasks), problems };
}
