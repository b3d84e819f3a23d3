import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arenaSetupFor } from '../../core/node/arena/arena-setup';
import { loadPersonas } from '../../core/node/personas/load-personas';
import { RunService } from '../../core/node/runs/run-service';
import { Workspace } from '../../core/node/workspace/workspace';
import type { LedgerCrux, LedgerFalsifier } from '../../core/contract';
import { readme, tempWorkspace, writeFile } from '../helpers/temp-workspace';

// Round 0: the brief of a new arena comes from the idea's README, its related ideas, the ledger rows
// that mention it and earlier arenas on it, and nothing about other ideas gets in.

let ws: { root: string; cleanup: () => void };
beforeAll(() => {
  ws = tempWorkspace('crucible-arena-setup-');
  writeFile(
    ws.root,
    'ideas/solar-coop/README.md',
    readme(
      'A community solar co-op',
      { relationships: '[{target: heat-pumps, type: related, reason: "same roofs"}]' },
      'Neighbours pool money for panels on the school roof.',
    ),
  );
  writeFile(ws.root, 'ideas/heat-pumps/README.md', readme('Shared heat pumps'));
  writeFile(ws.root, 'ideas/bike-lanes/README.md', readme('Protected bike lanes'));
});
afterAll(() => ws.cleanup());

const crux = (ideaSlug: string | null, question: string, status: LedgerCrux['status']): LedgerCrux => ({
  key: `d/${question}`,
  debateId: 'd',
  debateTopic: 'A debate',
  ideaSlug,
  debateCreatedAt: '2026-01-01T00:00:00Z',
  thread: 't1',
  question,
  threadStatus: 'CONVERGED',
  crystallized: true,
  validated: true,
  primary: true,
  dcg: null,
  falsifiers: 1,
  resolved: 0,
  nextDeadline: '2026-06-30',
  status,
});

const falsifier = (ideaSlug: string, metric: string, resolved: boolean): LedgerFalsifier => ({
  key: `d/t1/${metric}`,
  debateId: 'd',
  debateTopic: 'A debate',
  ideaSlug,
  debateCreatedAt: '2026-01-01T00:00:00Z',
  thread: 't1',
  question: null,
  agent: 'investor',
  agentName: 'The Investor',
  side: 'YES',
  confidence: 0.7,
  metric,
  threshold: 'at least 40 households',
  deadline: '2026-06',
  deadlineDate: '2026-06-30',
  status: resolved ? 'resolved' : 'open',
  resolution: resolved
    ? { outcome: 'survived', resolvedOn: '2026-07-01', note: '', recordedAt: '2026-07-01T00:00:00Z' }
    : null,
  messageId: null,
  index: null,
});

describe('an arena setup', { timeout: 60_000 }, () => {
  it('briefs every agent from the idea, its related ideas, the ledger and earlier arenas', async () => {
    const w = Workspace.open(ws.root);
    try {
      w.sync();
      const options = {
        ideaSlug: 'solar-coop',
        agents: ['investor', 'historian'],
        judge: 'judge',
        trickster: false,
        similarity: 'lexical' as const,
        ledger: {
          cruxes: [
            crux('solar-coop', 'Will 40 households join by June?', 'open'),
            crux(null, 'Does A community solar co-op pay back in ten years?', 'open'),
            crux('solar-coop', 'Was the roof strong enough?', 'resolved'),
            crux('bike-lanes', 'Will cyclists use the lane?', 'open'),
          ],
          falsifiers: [
            falsifier('solar-coop', 'sign-ups', true),
            falsifier('solar-coop', 'pledges', false),
            falsifier('bike-lanes', 'riders', true),
          ],
        },
      };
      const before = arenaSetupFor(w, options);
      const run = await new RunService(w).start({
        protocol: 'arena',
        ideaSlug: 'solar-coop',
        topic: before.topic,
        provider: 'simulated',
        seed: 2,
        setup: before.setup,
      });
      const after = arenaSetupFor(w, options);
      const sections = (text: string) => text.split('\n\n## ').map((s) => s.split('\n')[0]);
      const winner = (run.summary.judge as { ranking: string[] }).ranking[0];
      expect({
        topic: before.topic,
        sections: sections(before.setup.context),
        readme: before.setup.context.includes('Neighbours pool money for panels on the school roof.'),
        related: before.setup.context.includes('- Shared heat pumps [heat-pumps] (related: same roofs)'),
        cruxes: before.setup.context.match(/^- .*\?.*$/gm),
        falsifiers: before.setup.context.match(/^- The Investor: .*$/gm),
        bikeLanes: before.setup.context.includes('bike') || before.setup.context.includes('cyclists'),
        personas: [before.setup.agents.map((a) => a.id), before.setup.judge.id, before.setup.trickster],
        ratings: before.setup.ratings,
        pastAfter: sections(after.setup.context).at(-1),
        pastLine: after.setup.context.includes(`${run.summary.outcome}, ${winner} first with`),
      }).toEqual({
        topic: 'A community solar co-op',
        sections: [
          expect.stringMatching(/^This brief holds only what the workspace knows.*trending topics are out of scope/),
          'The idea: A community solar co-op',
          'Related ideas',
          'Open cruxes from the ledger',
          'Resolved falsifiers from the ledger',
        ],
        readme: true,
        related: true,
        cruxes: [
          '- Will 40 households join by June? (from the debate "A debate", next deadline 2026-06-30)',
          '- Does A community solar co-op pay back in ten years? (from the debate "A debate", next deadline 2026-06-30)',
        ],
        falsifiers: ['- The Investor: sign-ups at least 40 households — survived on 2026-07-01'],
        bikeLanes: false,
        personas: [['investor', 'historian'], 'judge', null],
        ratings: { investor: 1500, historian: 1500 },
        pastAfter: 'Earlier arenas on this question',
        pastLine: true,
      });
    } finally {
      w.close();
    }
  });

  it("sends each debater's identity without a crux debate's stage instructions, and the judge and trickster whole", () => {
    const w = Workspace.open(ws.root);
    try {
      const all = loadPersonas(ws.root).personas;
      const debaters = all.filter((p) => p.role === 'debater');
      const { setup } = arenaSetupFor(w, {
        topic: 'Should the school roof carry panels?',
        agents: debaters.map((p) => p.id),
        judge: 'judge',
        trickster: true,
        similarity: 'lexical',
        ledger: { cruxes: [], falsifiers: [] },
      });
      const whole = (id: string) => all.find((p) => p.id === id)?.systemPrompt;
      const stage = /\b(lock|evidence stage|falsifiers?|steelman\w*|top claim)\b/i;
      expect({
        debaters: setup.agents.map((a) => ({
          id: a.id,
          // The persona's own opening, cut at a paragraph, a good share of the prompt, no stage left in it.
          opening: whole(a.id)?.startsWith(a.systemPrompt) && whole(a.id)?.charAt(a.systemPrompt.length) === '\n',
          share: a.systemPrompt.length / (whole(a.id)?.length ?? 1) > 0.3,
          stage: stage.test(a.systemPrompt),
        })),
        judge: setup.judge.systemPrompt === whole('judge'),
        trickster: setup.trickster?.systemPrompt === whole('trickster'),
      }).toEqual({
        debaters: debaters.map((p) => ({ id: p.id, opening: true, share: true, stage: false })),
        judge: true,
        trickster: true,
      });
      expect(debaters.length).toBeGreaterThanOrEqual(9);
    } finally {
      w.close();
    }
  });
});
