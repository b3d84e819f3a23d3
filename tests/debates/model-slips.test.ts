import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CruxBrief } from '../../core/crux/live/brief';
import type { FakeStep } from '../fakes/fake-anthropic';
import { SLIP_KINDS } from '../fakes/model-slips';
import { briefOfRequest } from '../fakes/simulator-responder';
import { misbehavingDebate } from '../helpers/misbehaving-runs';

/**
 * Debates against a fake server that answers like a model, slips included, through the real SDK:
 * the slips of the fixture corpus are repaired or re-asked, and no slip ends a run with an exception.
 */

const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(join(__dirname, '..', 'fixtures', 'model-answers', name), 'utf8'));

describe('a debate whose model slips', () => {
  it('reads display names as agent ids and re-asks a position for someone not in the debate', async () => {
    // The first analysis names a "Moderator" (re-asked with the roster); the second is keyed by names.
    const analyses = [fixture('crux-analysis-unknown-agent.json'), fixture('crux-analysis-display-names.json')];
    let steelman = fixture('crux-move-steelman-name.json') as object | null;
    const run = await misbehavingDebate({
      agents: 3,
      seed: 2,
      rate: 0,
      respond: (request, simulated): FakeStep => {
        const brief = briefOfRequest(request) as CruxBrief | null;
        if (brief?.kind === 'analysis' && analyses.length > 0) return { kind: 'answer', input: analyses.shift() };
        if (
          brief?.kind === 'turn' &&
          steelman &&
          brief.ask.kind === 'STEELMAN' &&
          brief.ask.target === 'skeptical-economist'
        ) {
          const input = steelman;
          steelman = null;
          return { kind: 'answer', input };
        }
        return simulated;
      },
    });
    const crystallized = run.records.flatMap((r) =>
      r.type === 'event' && r.event.type === 'crystallized'
        ? [r.event.crux as { positions: object; counterfactual: object }]
        : [],
    );
    const steelmans = run.records.flatMap((r) =>
      r.type === 'event' && r.event.type === 'message_posted' && r.event.move === 'STEELMAN'
        ? [{ agent: r.event.agent, target: (r.event.meta as { steelmanTarget?: string }).steelmanTarget }]
        : [],
    );
    const reask = run.requests.find((r) =>
      String(r.body.messages.at(-1)?.content).startsWith('Your answer to `crux_analysis` was rejected'),
    );
    expect({
      ended: [run.ended, run.exception],
      firstCrux: [
        Object.keys(crystallized[0]?.positions ?? {}).sort(),
        Object.keys(crystallized[0]?.counterfactual ?? {}).sort(),
      ],
      reask: reask?.body.messages.at(-1)?.content,
      analysisCalls: run.records
        .flatMap((r) =>
          r.type === 'llm_call' && r.purpose.startsWith('analysis:') ? [[r.call.ok, r.call.repairs?.length ?? 0]] : [],
        )
        .slice(0, 2),
      steelman:
        steelmans.find((s) => s.target === 'skeptical-economist' && s.agent !== 'skeptical-economist') !== undefined,
      steelmanAnswered: steelman === null,
    }).toEqual({
      ended: ['completed', null],
      firstCrux: [
        ['optimist-engineer', 'regulator', 'skeptical-economist'],
        ['optimist-engineer', 'regulator', 'skeptical-economist'],
      ],
      reask: expect.stringContaining(
        '- positions: "Moderator" is not an agent of this debate; key it by one of the ids: optimist-engineer (Optimist Engineer), skeptical-economist (Skeptical Economist), regulator (Regulator)',
      ),
      analysisCalls: [
        [false, 0],
        [true, 6],
      ],
      steelman: true,
      steelmanAnswered: true,
    });
  });

  it('ends every debate of 3, 5 and 12 agents itself when a fifth of the answers slip', {
    timeout: 60_000,
  }, async () => {
    const runs = [];
    for (const seed of [1, 2, 3, 4]) {
      for (const agents of [3, 5, 12])
        runs.push({ agents, seed, ...(await misbehavingDebate({ agents, seed, rate: 0.2 })) });
    }
    const slips = new Set(runs.flatMap((r) => Object.keys(r.slips)));
    expect({
      unended: runs
        .filter((r) => r.exception !== null || !['completed', 'partial'].includes(r.ended))
        .map((r) => `${r.agents} agents, seed ${r.seed}: ${r.ended} ${r.exception ?? ''}`),
      everySlipMade: SLIP_KINDS.filter((k) => !slips.has(k)),
      reasked: runs.some((r) => r.reasks > 0),
    }).toEqual({ unended: [], everySlipMade: [], reasked: true });
  });
});
