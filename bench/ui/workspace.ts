import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DebateHeader } from '../../core/engine/debate-record';
import { DEFAULT_LIMITS } from '../../core/node/debates/debate-service';
import { DebateJournal } from '../../core/node/debates/journal';
import { Workspace } from '../../core/node/workspace/workspace';
import { generateCruxScript } from '../crux-script';
import { planReplay, type recordsOf, runReplayPlan } from '../engine/replay';
import { generateWorkspace } from '../lib/generate';
import { Prng, seedOf } from '../lib/prng';
import { vocabularyFromTaxonomy } from '../lib/vocabulary';

export interface UiBenchWorkspace {
  root: string;
  slugs: string[];
  /** The id of the long debate (about `messages` messages), logged under the first idea. */
  debateId: string;
  messages: number;
  dispose(): void;
}

/**
 * The workspace the UI benchmark opens: `ideas` generated ideas (the sync benchmark's generator)
 * and one crux debate of about `messages` messages, replayed from a generated script into a real
 * debate log (JSONL + index mirror) as the engine writes it, attached to the first idea.
 */
export function buildUiBenchWorkspace(ideas: number, messages: number): UiBenchWorkspace {
  const root = mkdtempSync(join(tmpdir(), 'crucible-bench-ui-'));
  const generated = generateWorkspace(root, ideas, vocabularyFromTaxonomy());
  writeSyntheses(root, generated.slugs);
  const ws = Workspace.open(root);
  let debateId = 'bench-ui-long-debate';
  let counted = 0;
  try {
    ws.sync();
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
  } finally {
    ws.close();
  }
  return {
    root,
    slugs: generated.slugs,
    debateId,
    messages: counted,
    dispose: () => rmSync(root, { recursive: true, force: true }),
  };
}

const CATEGORIES = ['problem', 'solution', 'feasibility', 'fit', 'market', 'risk'];

/**
 * A locked evaluation's `synthesis.md` for every idea (only the frontmatter the index reads, with
 * seeded scores), so the leaderboard ranks 10,000 evaluated ideas as it would in a used library.
 */
function writeSyntheses(root: string, slugs: readonly string[]): void {
  slugs.forEach((slug, i) => {
    const rng = new Prng(seedOf(`synthesis:${i}`));
    const score = () => Math.round((3 + rng.next() * 6) * 10) / 10;
    const categories = CATEGORIES.map((c) => `  ${c}: ${score()}`).join('\n');
    writeFileSync(
      join(root, 'ideas', slug, 'synthesis.md'),
      `---\nevaluationId: bench-eval-${i}\noverallScore: ${score()}\noverallConfidence: ${Math.round(rng.next() * 100) / 100}\n` +
        `redTeamSurvivalRate: ${Math.round(rng.next() * 100) / 100}\nlockReason: CONVERGENCE\nrecommendation: PURSUE\n` +
        `completedAt: 2026-11-01T09:00:00.000Z\ncontentHashAtEvaluation: bench\ncategoryScores:\n${categories}\n---\n# Final synthesis\n\nGenerated for the UI benchmark.\n`,
    );
  });
}
