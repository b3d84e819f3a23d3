import { cpSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { appRoot } from '../../core/node/app-root';
import { EvaluationService } from '../../core/node/evaluations/evaluation-service';
import { Workspace } from '../../core/node/workspace/workspace';
import { tempWorkspace } from '../helpers/temp-workspace';

// An evaluation's record is written last, after its script and its documents: a process killed
// before it leaves a run to resume, and the resume keeps it whole — the record, the idea's current
// evaluation — without a conflict copy of what it had already written.

const IDEA = 'llm-judge-calibration';
const { root, cleanup } = tempWorkspace('crucible-kept-last-');
afterAll(() => cleanup());

describe('keeping a locked evaluation', () => {
  it('resumes one killed before its record into the same record, current, with no conflict copies', async () => {
    cpSync(join(appRoot(), 'ideas', IDEA), join(root, 'ideas', IDEA), { recursive: true });
    const ws = Workspace.open(root);
    try {
      ws.sync();
      const service = new EvaluationService(ws);
      const first = await service.evaluate(IDEA, { mode: 'quick', provider: 'simulated', seed: 4 });
      const id = first.document.evaluationId;
      const folder = join(root, 'ideas', IDEA);
      const record = readFileSync(join(root, first.recordPath), 'utf8');
      const synthesis = readFileSync(join(folder, 'synthesis.md'), 'utf8');
      // What a kill -9 just before the record leaves: the script and the documents, no record.
      rmSync(join(root, first.recordPath));
      const again = await service.resume(id);
      const files = [...readdirSync(folder), ...readdirSync(join(folder, 'evaluations'))];
      expect({
        record: readFileSync(join(root, again.recordPath), 'utf8') === record,
        synthesis: readFileSync(join(folder, 'synthesis.md'), 'utf8') === synthesis,
        conflicts: files.filter((f) => f.includes('.conflict-')),
        current: service.leaderboard().find((row) => row.slug === IDEA)?.evaluationId,
      }).toEqual({ record: true, synthesis: true, conflicts: [], current: id });
    } finally {
      ws.close();
    }
  }, 120_000);
});
