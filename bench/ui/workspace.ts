import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DebateHeader } from '../../core/engine/debate-record';
import { DEFAULT_LIMITS } from '../../core/node/debates/debate-service';
import { DebateJournal } from '../../core/node/debates/journal';
import { Workspace } from '../../core/node/workspace/workspace';
import { generateCruxScript } from '../crux-script';
import { planReplay, type recordsOf, runReplayPlan } from '../engine/replay';
import { generateWorkspace } from '../lib/generate';
import { vocabularyFromTaxonomy } from '../lib/vocabulary';
import { countRecords, evaluateAll } from './evaluations';

export interface UiBenchWorkspace {
  root: string;
  slugs: string[];
  /** The id of the long debate (about `messages` messages), logged under the first idea. */
  debateId: string;
  /** The locked evaluation of the first idea. */
  evaluationId: string;
  messages: number;
  dispose(): void;
}

/**
 * The workspace the UI benchmark opens: `ideas` generated ideas (the sync benchmark's generator),
 * each with a locked evaluation (./evaluations.ts), and one crux debate of about `messages`
 * messages, replayed from a generated script into a real debate log (JSONL + index mirror) as the
 * engine writes it, attached to the first idea.
 */
export async function buildUiBenchWorkspace(ideas: number, messages: number): Promise<UiBenchWorkspace> {
  const root = mkdtempSync(join(tmpdir(), 'crucible-bench-ui-'));
  const generated = generateWorkspace(root, ideas, vocabularyFromTaxonomy());
  const ws = Workspace.open(root);
  let debateId = 'bench-ui-long-debate';
  let counted = 0;
  let evaluationId = '';
  try {
    ws.sync();
    evaluationId = await evaluateAll(ws, generated.slugs);
    const evaluated = countRecords(root, generated.slugs);
    if (evaluated < ideas) throw new Error(`only ${evaluated} of ${ideas} generated ideas hold an evaluation`);
    // The script's threads round their share up and stop a few short; ask for a little more.
    const plan = planReplay(generateCruxScript({ agents: 5, threads: 8, messages: Math.ceil(messages * 1.05) + 100 }));
    const header: DebateHeader = {
      id: debateId,
      protocol: 'crux',
      topic: plan.topic,
      ideaSlug: generated.slugs[0] ?? null,
      agents: plan.agents.map((a) => ({ ...a, persona: null, interests: [], tier: 'standard' as const })),
      config: plan.config as Record<string, unknown>,
      provider: 'replay',
      seed: null,
      limits: DEFAULT_LIMITS,
      createdAt: new Date('2026-11-01T09:00:00Z').toISOString(),
    };
    const journal = DebateJournal.create(ws.root, ws.db, header);
    let pending: ReturnType<typeof recordsOf> = [];
    const outcome = runReplayPlan(plan, {
      append(records) {
        pending.push(...records);
        if (pending.length >= 500) {
          journal.append(pending);
          pending = [];
        }
      },
    });
    if (pending.length > 0) journal.append(pending);
    journal.close();
    debateId = header.id;
    counted = outcome.messages;
    if (counted < messages) throw new Error(`the generated debate has ${counted} messages, fewer than ${messages}`);
  } catch (error) {
    ws.close();
    rmSync(root, { recursive: true, force: true });
    throw error;
  }
  ws.close();
  return {
    root,
    slugs: generated.slugs,
    debateId,
    evaluationId,
    messages: counted,
    dispose: () => rmSync(root, { recursive: true, force: true }),
  };
}
