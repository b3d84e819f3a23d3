import { describe, expect, it } from 'vitest';
import type { ArenaBrief } from '../../core/arena/live/briefs';
import type { ArenaResult } from '../../core/arena';
import type { FakeRequest, FakeStep } from '../fakes/fake-anthropic';
import { SLIP_KINDS } from '../fakes/model-slips';
import { briefOfRequest } from '../fakes/simulator-responder';
import { misbehavingArena } from '../helpers/misbehaving-arena';

/**
 * Arenas against a fake server that answers like a model, slips included, through the real SDK and
 * the run service: slips are repaired or put back to the model, every arena ends itself, an agent
 * whose answer cannot be had leaves and the others go on, and an arena that cannot go on fails with
 * the reason in the log's last status.
 */

describe('an arena whose model slips', () => {
  it('ends every arena of 2, 3 (with the trickster) and 5 agents itself when a fifth of the answers slip', {
    timeout: 180_000,
  }, async () => {
    const runs = [];
    for (const seed of [1, 2, 3])
      for (const [agents, trickster] of [
        [2, false],
        [3, true],
        [5, false],
      ] as const)
        runs.push({ agents, seed, ...(await misbehavingArena({ agents, trickster, seed, rate: 0.2 })) });
    // Which answers draw a slip depends on the requests' words; the slips that need room in an answer
    // (an id to misname, an enum to miscase) get an arena of their own, so each is made whatever the
    // asks say.
    runs.push({
      agents: 5,
      seed: 4,
      ...(await misbehavingArena({ agents: 5, seed: 4, rate: 0.3, kinds: ['display_names', 'enum_case'] })),
    });
    const slips = new Set(runs.flatMap((r) => Object.keys(r.slips)));
    // What the arena's own checks put back: an id not in play, named in the re-ask.
    const refused = runs.flatMap((r) =>
      r.requests.flatMap((q) => {
        const last = String(q.body.messages.at(-1)?.content ?? '');
        return last.startsWith('Your answer to `arena_') && /unknown (agent|claim id|critique id)/.test(last)
          ? [last.split('\n')[0]]
          : [];
      }),
    );
    expect({
      unended: runs
        .filter((r) => r.exception !== null || r.ended !== 'completed')
        .map((r) => `${r.agents} agents, seed ${r.seed}: ${r.ended} ${r.reason ?? ''} ${r.exception ?? ''}`),
      everySlipMade: SLIP_KINDS.filter((k) => !slips.has(k)),
      reasked: runs.some((r) => r.reasks > 0),
      refusedByTheArena: refused.length > 0,
      // Each completed arena has its result, the counters of every answer it took.
      results: runs.every((r) => typeof r.summary.outcome === 'string'),
    }).toEqual({ unended: [], everySlipMade: [], reasked: true, refusedByTheArena: true, results: true });
  });

  it('goes on without an agent whose revision is refused every time, and fails when only one would be left', {
    timeout: 60_000,
  }, async () => {
    // The historian edits a paragraph its proposal does not have, whatever it is told.
    const respond = (request: FakeRequest, simulated: FakeStep): FakeStep => {
      const brief = briefOfRequest(request) as ArenaBrief | null;
      if (brief?.kind !== 'revision' || brief.agent !== 'historian' || simulated.kind !== 'answer') return simulated;
      const input = simulated.input as { bodyEdits: unknown[] };
      return { kind: 'answer', input: { ...input, bodyEdits: [{ op: 'delete', at: 40 }] } };
    };
    const three = await misbehavingArena({ agents: 3, seed: 2, rate: 0, respond });
    const two = await misbehavingArena({ agents: 2, seed: 2, rate: 0, respond });
    const why =
      "historian's revision (round 3) failed: no valid arena_revision after 3 answers; the last one: - bodyEdits[0].at: your current version has 5 paragraph(s), no ¶40";
    const result = three.summary as unknown as ArenaResult;
    const asked = (run: typeof three) =>
      run.requests.filter((q) => {
        const brief = briefOfRequest(q) as ArenaBrief | null;
        return brief?.kind === 'revision' && brief.agent === 'historian';
      }).length;
    const last = two.records.at(-1);
    const failed = `${why}; historian left the arena and one agent is left`;
    expect({
      three: {
        ended: [three.ended, three.exception],
        withdrawn: result.withdrawn,
        // It is scored by no judge and plays no game: its rating stays as it was.
        scored: Object.keys(result.judge.scores).sort(),
        rating: [result.elo.before.historian, result.elo.after.historian],
        // No one votes for it, and it casts no vote.
        voters: Object.keys(result.voteBrier).sort(),
        asked: asked(three),
      },
      two: {
        ended: [two.ended, two.reason, two.exception],
        status: last?.type === 'status' ? [last.status, last.reason] : last?.type,
        asked: asked(two),
      },
    }).toEqual({
      three: {
        ended: ['completed', null],
        withdrawn: { historian: why },
        scored: ['investor', 'regulator'],
        rating: [1500, 1500],
        voters: ['investor', 'regulator'],
        // Three asks, each with the provider's two re-asks; then it is asked nothing more.
        asked: 9,
      },
      two: { ended: ['failed', failed, null], status: ['failed', failed], asked: 9 },
    });
  });
});
