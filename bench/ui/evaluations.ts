import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EvaluationService } from '../../core/node/evaluations/evaluation-service';
import { ideaEvaluationState } from '../../core/node/sqlite/evaluation-record-queries';
import { getIdea } from '../../core/node/sqlite/index-sql';
import type { Workspace } from '../../core/node/workspace/workspace';

/** Ideas evaluated for real (simulated, quick); every other idea gets a copy of one of theirs. */
export const TEMPLATES = 40;

interface Template {
  id: string;
  ideaId: string;
  contentHash: string;
  doc: Record<string, unknown>;
  script: string[];
  synthesis: string;
}

/**
 * Gives every idea of the workspace a locked evaluation, as a used library has: the first
 * `TEMPLATES` ideas are evaluated by the simulated provider through the evaluation service (quick
 * mode, about 0.1 s each), and every other idea receives a copy of one of those evaluations under
 * its own id, naming the idea and its current content hash (so it is not stale): the record the
 * matrix reads, the script the transcripts replay and the `synthesis.md` the index reads. Twenty
 * thousand real evaluations would take the better part of an hour; copies of forty differ only in
 * whom they name, which is all the views read. Answers the first idea's evaluation id.
 */
export async function evaluateAll(ws: Workspace, slugs: readonly string[]): Promise<string> {
  const service = new EvaluationService(ws);
  const templates: Template[] = [];
  for (const slug of slugs.slice(0, TEMPLATES)) {
    const run = await service.evaluate(slug, { mode: 'quick', provider: 'simulated', seed: 1 });
    const id = run.document.evaluationId;
    const folder = join(ws.root, 'ideas', slug);
    templates.push({
      id,
      ideaId: run.document.ideaId,
      contentHash: run.document.contentHashAtEvaluation,
      doc: JSON.parse(readFileSync(join(folder, 'evaluations', `${id}.json`), 'utf8')) as Record<string, unknown>,
      script: readFileSync(join(folder, 'evaluations', `${id}.jsonl`), 'utf8').split('\n'),
      synthesis: readFileSync(join(folder, 'synthesis.md'), 'utf8'),
    });
  }
  slugs.slice(TEMPLATES).forEach((slug, i) => {
    const template = templates[i % templates.length] as Template;
    const state = ideaEvaluationState(ws.db, slug);
    const idea = getIdea(ws.db, slug);
    if (!state || !idea) throw new Error(`the generated idea ${slug} is not indexed`);
    const { id: ideaId, title } = idea;
    const id = `bench-eval-${(TEMPLATES + i).toString(36).padStart(5, '0')}`;
    const folder = join(ws.root, 'ideas', slug, 'evaluations');
    mkdirSync(folder, { recursive: true });
    const doc = {
      ...template.doc,
      evaluationId: id,
      ideaId,
      ideaTitle: title,
      contentHashAtEvaluation: state.contentHash,
    };
    writeFileSync(join(folder, `${id}.json`), `${JSON.stringify(doc, null, 2)}\n`);
    const [head, ...rest] = template.script;
    const header = JSON.parse(head ?? '{}') as Record<string, unknown>;
    const script = [
      JSON.stringify({ ...header, evaluationId: id, idea: { id: ideaId, title }, contentHash: state.contentHash }),
      ...rest,
    ];
    writeFileSync(join(folder, `${id}.jsonl`), script.join('\n'));
    writeFileSync(
      join(ws.root, 'ideas', slug, 'synthesis.md'),
      template.synthesis
        .replaceAll(template.id, id)
        .replaceAll(template.ideaId, ideaId)
        .replaceAll(template.contentHash, state.contentHash),
    );
  });
  ws.sync();
  return (templates[0] as Template).id;
}

/** How many ideas hold an evaluation record (a check that the copies were written). */
export function countRecords(root: string, slugs: readonly string[]): number {
  return slugs.filter((slug) => {
    try {
      return readdirSync(join(root, 'ideas', slug, 'evaluations')).some((n) => /^[a-z0-9-]+\.json$/.test(n));
    } catch {
      return false;
    }
  }).length;
}
