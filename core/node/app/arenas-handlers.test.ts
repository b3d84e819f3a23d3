import { describe, expect, it } from 'vitest';
import { appPerTest, IDEA, OTHER, record, refused, runStatuses } from '../../../tests/helpers/app-harness';
import { type ArenaDetail, arenasChannels, type Channel, type PushPayload } from '../../contract';
import { LlmError } from '../../ports/llm';
import { arenaSetupFor } from '../arena/arena-setup';
import { ideaRatingsReport, ratingsReport } from '../arena/ratings-report';
import { type ProviderFactory, providerFor } from '../debates/providers';
import { RunService } from '../runs/run-service';
import { Workspace } from '../workspace/workspace';
import type { App } from './create-app';

// The arenas:* channels against a real app on a temp workspace, with the offline simulator: an
// arena started from the channel runs in the background through the general run service, its end
// arrives as `run:status`, and what `arenas:get` and `arenas:ratings` read is checked against what
// the run service and the `ratings` fold say of the same logs.

const AGENTS = ['optimist-engineer', 'skeptical-economist', 'regulator'];
const answered = new Set<Channel>();
const ENDED = new Set(['completed', 'partial', 'cancelled', 'failed']);

/** The end of the next arena, as `run:status` pushes it (subscribe before starting it). */
function arenaEnd(app: App): Promise<PushPayload<'run:status'>> {
  return new Promise((resolve) => {
    const off = app.events.on('run:status', (p) => {
      if (p.protocol !== 'arena' || !ENDED.has(p.status)) return;
      off();
      resolve(p);
    });
  });
}

const text = (parts: { op: string; text: string }[]) =>
  parts
    .filter((p) => p.op !== 'removed')
    .map((p) => p.text)
    .join('');

/** What the view shows, reduced to what the run service's summary of the same log says. */
function asSummary(d: ArenaDetail) {
  return {
    outcome: d.outcome,
    earlyConsensus: d.earlyConsensus,
    convergence: d.convergence.map((c) => ({ round: c.round, score: c.score, measure: c.measure })),
    consensus: (() => {
      const v = d.votes[d.votes.length - 1];
      return (
        v && {
          level: v.level,
          reached: v.reached,
          leader: v.leader,
          tally: Object.fromEntries(v.tally.map((t) => [t.agent, t.votes])),
        }
      );
    })(),
    judge: (() => {
      const j = d.judgments[d.judgments.length - 1];
      return (
        j && {
          ranking: j.ranking,
          scores: Object.fromEntries(d.agents.map((a) => [a.id, j.scores.find((s) => s.agent === a.id)?.overall])),
        }
      );
    })(),
    elo: d.elo,
    voteBrier: d.voteBrier,
    counters: d.counters,
  };
}

describe('arenas', () => {
  const t = appPerTest('crucible-arenas-', answered);
  const { boot, call } = t;

  it('estimates, starts a simulated arena in the background, and reads it as its log and the run service have it', async () => {
    const app = await boot();
    const seen = record(app);

    const free = await call(app, 'arenas:estimate', {
      ideaSlug: IDEA,
      agents: AGENTS,
      trickster: true,
      provider: 'simulated',
    });
    // Priced from the model table for Anthropic, with no key: the figure is there, and why it cannot run.
    const priced = await call(app, 'arenas:estimate', { ideaSlug: IDEA, agents: AGENTS, provider: 'anthropic' });
    expect({ free, priced: { ...priced, usd: priced.usd > 0, worstUsd: priced.worstUsd > priced.usd } }).toEqual({
      // The arena's plan (core/arena/plan.ts). Likely: 3 proposals + 3 critiques + 3·(2 rounds + ½
      // refinement + ¼ extended + 0.3 challenged) revisions + 3·(1 + ¼ + 0.3) votes + 0.3 challenge
      // + 1¼ judgments = 21.35; at worst 3 + 3 + 3·(3 + 1 + 2 + 1) + 3·(1 + 2 + 1) + 1 + 3 = 43.
      free: {
        calls: 21,
        usd: 0,
        worstCalls: 43,
        worstUsd: 0,
        basis: expect.stringMatching(
          /^about 21 calls for 3 agents: proposals, critiques, 2 revision round\(s\), .*a challenge and a re-vote\); the simulator costs nothing$/,
        ),
        cannotRun: null,
      },
      priced: {
        // No trickster, and judged similarity by default with a model: 2 measurements likely, 3 at
        // worst: 3 + 3 + 3·2¾ + 3·1¼ + 2 + 1¼ = 21.25; 3 + 3 + 3·6 + 3·3 + 3 + 3 = 39.
        calls: 21,
        usd: true,
        worstCalls: 39,
        worstUsd: true,
        basis: expect.stringContaining('2 revision round(s) each judged for agreement'),
        cannotRun: expect.stringMatching(/key/i),
      },
    });

    const ended = arenaEnd(app);
    const started = await call(app, 'arenas:start', {
      ideaSlug: IDEA,
      agents: AGENTS,
      trickster: true,
      provider: 'simulated',
      seed: 2,
    });
    expect([started.run.protocol, started.run.ideaSlug, started.run.live]).toEqual(['arena', IDEA, true]);
    const id = started.run.id;
    expect(await ended).toMatchObject({ id, status: 'completed', live: false });
    expect(runStatuses(seen, id)).toEqual(['running', 'completed']);

    const detail = await call(app, 'arenas:get', { id });
    const ws = Workspace.open(t.root);
    const shown = (() => {
      try {
        return new RunService(ws).show(id);
      } finally {
        ws.close();
      }
    })();
    const summary = shown.summary as Record<string, unknown>;
    expect(asSummary(detail)).toEqual({
      outcome: summary.outcome,
      earlyConsensus: summary.earlyConsensus,
      convergence: summary.convergence,
      consensus: summary.consensus,
      judge: summary.judge,
      elo: summary.elo,
      voteBrier: summary.voteBrier,
      counters: summary.counters,
    });

    // Seed 2 is a hollow consensus: every check's numbers are shown, and the re-vote beside the first.
    expect({
      status: detail.status,
      waitingFor: detail.waitingFor,
      similarity: detail.settings.similarity,
      agents: detail.agents.map((a) => [a.id, a.versions.map((v) => v.label), a.left]),
      votes: detail.votes.map((v) => v.pass),
      hollow: detail.hollow && {
        ran: detail.hollow.ran,
        detected: detail.hollow.detected,
        reasons: detail.hollow.reasons,
      },
      challenge: detail.challenge?.target,
    }).toEqual({
      status: 'completed',
      waitingFor: [],
      similarity: 'lexical',
      agents: AGENTS.map((a) => [a, ['proposal', 'revision 3', 'after the challenge'], null]),
      votes: ['main', 'T'],
      hollow: { ran: true, detected: true, reasons: ['ADOPTION', 'THIN_EVIDENCE', 'TOO_FAST'] },
      challenge: detail.votes[0]?.leader,
    });

    // Each version's diff gives its own text back; each critique names a claim of its target's
    // proposal, and is answered exactly when a revision of that agent lists it.
    for (const agent of detail.agents) {
      expect(agent.versions[0]?.diff).toBeNull();
      for (const v of agent.versions.slice(1)) {
        expect(v.diff && [text(v.diff.title), text(v.diff.summary), text(v.diff.body)]).toEqual([
          v.title,
          v.summary,
          v.body,
        ]);
      }
      const claims = new Set(agent.versions[0]?.claims.map((c) => c.id));
      for (const c of agent.critiques) {
        expect(c.target).toBe(agent.id);
        if (c.claim !== null) expect(claims.has(c.claim)).toBe(true);
        const answeredIn = agent.versions.find((v) => v.addressed.includes(c.id))?.round ?? null;
        expect(c.addressedIn).toBe(answeredIn);
      }
    }
    expect(detail.agents.flatMap((a) => a.critiques).length).toBe(detail.counters.critiques);
  });

  it('shows an agent that left the arena, why it left, and what it wrote before', async () => {
    // The regulator's revisions fail every time (the simulator answers the rest): it leaves after
    // its third failed ask, and the other two finish the arena without it.
    const providers: ProviderFactory = (name, root, seed) => {
      const simulated = providerFor(name, root, seed);
      return {
        ...simulated,
        llm: {
          provider: simulated.llm.provider,
          call: (request) => {
            const brief = request.brief as { kind?: string; agent?: string } | undefined;
            return brief?.kind === 'revision' && brief.agent === 'regulator'
              ? Promise.reject(new LlmError('server_error', 'the server is down'))
              : simulated.llm.call(request);
          },
        },
      };
    };
    const ws = Workspace.open(t.root);
    const run = await (async () => {
      try {
        ws.sync();
        const { topic, setup } = arenaSetupFor(ws, {
          ideaSlug: IDEA,
          agents: AGENTS,
          judge: 'judge',
          trickster: false,
          similarity: 'lexical',
          ledger: { cruxes: [], falsifiers: [] },
        });
        return await new RunService(ws, undefined, providers).start({
          protocol: 'arena',
          ideaSlug: IDEA,
          topic,
          provider: 'simulated',
          seed: 3,
          setup,
        });
      } finally {
        ws.close();
      }
    })();
    const app = await boot();
    const detail = await call(app, 'arenas:get', { id: run.id });
    const withdrawn = (run.summary as { withdrawn?: Record<string, string> }).withdrawn ?? {};
    expect({
      status: detail.status,
      left: detail.agents.map((a) => [a.id, a.left, a.versions.map((v) => v.round)]),
      scored: detail.judgments.at(-1)?.ranking.slice().sort(),
    }).toEqual({
      status: 'completed',
      left: [
        ['optimist-engineer', null, expect.arrayContaining(['1', '3'])],
        ['skeptical-economist', null, expect.arrayContaining(['1', '3'])],
        // Its proposal stays; no revision of it was ever had.
        ['regulator', withdrawn.regulator, ['1']],
      ],
      scored: ['optimist-engineer', 'skeptical-economist'],
    });
    expect(withdrawn.regulator).toMatch(/^regulator's revision \(round 3\) failed: .*the server is down/);
    // It plays none of the arena's games: the ratings fold counts the arena for the two that stayed,
    // whose ratings are the arena's own "after", and leaves the regulator out.
    const ratings = await call(app, 'arenas:ratings', {});
    const elo = (run.summary as { elo: { after: Record<string, number> } }).elo.after;
    expect(ratings.personas.map((p) => [p.id, p.arenas, Math.round(p.elo * 10) / 10]).sort()).toEqual(
      [
        ['optimist-engineer', 1, elo['optimist-engineer']],
        ['skeptical-economist', 1, elo['skeptical-economist']],
      ].sort(),
    );
    expect(elo.regulator).toBe(1500);
  });

  it('folds ratings with a history per arena from completed arenas only, as the ratings command does', async () => {
    const app = await boot();
    for (const [seed, agents] of [
      [1, AGENTS],
      [4, ['regulator', 'investor', 'skeptical-economist']],
    ] as const) {
      const ended = arenaEnd(app);
      await call(app, 'arenas:start', {
        topic: 'Pilot the tutoring scheme?',
        agents: [...agents],
        provider: 'simulated',
        seed,
      });
      expect((await ended).status).toBe('completed');
    }
    // A cancelled arena changes nothing: paced, it is still running when it is stopped.
    const paced = await boot({ paceSimulated: true });
    const cancelled = arenaEnd(paced);
    const { run } = await call(paced, 'arenas:start', { topic: 'Left out', agents: AGENTS, provider: 'simulated' });
    await call(paced, 'runs:cancel', { id: run.id });
    expect((await cancelled).status).toBe('cancelled');

    const ratings = await call(app, 'arenas:ratings', {});
    const report = ratingsReport(t.root);
    expect({
      table: ratings.personas.map(({ history: _, name: __, ...r }) => r),
      counted: ratings.counted,
      leftOut: ratings.leftOut,
      // The chart's last point is the table's rating; arenas a persona sat out leave no point.
      last: ratings.personas.map((p) => [p.id, p.history.length, p.history[p.history.length - 1]?.after]),
      ideas: ratings.ideas,
    }).toEqual({
      table: report.ratings,
      counted: 2,
      leftOut: [{ status: 'cancelled', arenas: 1 }],
      last: report.ratings.map((r) => [r.id, r.arenas, r.elo]),
      ideas: [],
    });
    const regulator = ratings.personas.find((p) => p.id === 'regulator');
    expect(regulator?.history.map((h) => [h.topic, h.of, h.before])).toEqual([
      ['Pilot the tutoring scheme?', 3, 1500],
      ['Pilot the tutoring scheme?', 3, regulator?.history[0]?.after],
    ]);
  });

  it('refuses what cannot run, in words', async () => {
    const app = await boot();
    const debate = await call(app, 'debates:start', { topic: 'Not an arena', agents: AGENTS, provider: 'simulated' });
    expect(
      await Promise.all([
        refused(call(app, 'arenas:start', { ideaSlug: IDEA, agents: ['nobody', 'regulator'], provider: 'simulated' })),
        refused(call(app, 'arenas:start', { ideaSlug: IDEA, agents: AGENTS, provider: 'anthropic' })),
        refused(
          call(app, 'arenas:estimate', { topic: 'x', agents: AGENTS, similarity: 'embedding', provider: 'simulated' }),
        ),
        refused(call(app, 'arenas:start', { topic: 'x', agents: AGENTS, judge: 'regulator', provider: 'simulated' })),
        refused(call(app, 'arenas:get', { id: debate.id })),
        refused(call(app, 'arenas:estimate', { agents: AGENTS, provider: 'simulated' })),
      ]).then((errors) => errors.map((e) => [e.code, e.message])),
    ).toEqual([
      ['user_error', expect.stringContaining('nobody')],
      ['user_error', expect.stringMatching(/key/i)],
      ['user_error', expect.stringContaining('embedding')],
      ['user_error', expect.stringContaining('not a judge persona')],
      ['user_error', `run ${debate.id} is not an arena but a crux run (see: runs show ${debate.id})`],
      ['bad_input', 'topic: an arena needs an idea (ideaSlug) or a topic'],
    ]);
  });
});

const THIRD = 'soil-moisture-lora';
const CHAMPIONS = ['investor', 'historian', 'regulator'];

/** Resolves once `n` arenas have ended, with their ends in order (subscribe before starting them). */
function arenaEnds(app: App, n: number): Promise<PushPayload<'run:status'>[]> {
  const ends: PushPayload<'run:status'>[] = [];
  return new Promise((resolve) => {
    const off = app.events.on('run:status', (p) => {
      if (p.protocol !== 'arena' || !ENDED.has(p.status)) return;
      ends.push(p);
      if (ends.length < n) return;
      off();
      resolve(ends);
    });
  });
}

describe('tournaments', () => {
  const t = appPerTest('crucible-tournaments-', answered, [IDEA, OTHER, THIRD]);
  const { boot, call } = t;
  const IDEAS = [IDEA, OTHER, THIRD];

  it('prices all its meetings with the arena estimate, plays them one after another, and folds the ideas’ Elo as `ratings --ideas` does', async () => {
    const app = await boot();
    const estimate = await call(app, 'arenas:estimate', { ideas: IDEAS, agents: CHAMPIONS, provider: 'simulated' });
    // Three head-to-heads of two agents, no trickster, lexical. Two agents who may not vote for
    // themselves never reach consensus, so a meeting likely runs an extended round: each likely 2
    // proposals + 2 critiques + 2·(2 + ½ + 1) revisions + 2·(1 + 1) votes + 2 judgments = 17, so 51
    // in all; at worst 2 + 2 + 2·(3 + 1 + 2) + 2·(1 + 2) + 3 = 25 each, 75 in all.
    expect(estimate).toEqual({
      calls: 51,
      usd: 0,
      worstCalls: 75,
      worstUsd: 0,
      basis: expect.stringMatching(
        /^3 head-to-head arenas, every pair of the 3 ideas once; each about 17 calls for 2 agents: proposals.*likely 1 extended round\(s\).*; the simulator costs nothing$/,
      ),
      cannotRun: null,
    });

    const ends = arenaEnds(app, 3);
    const started = await call(app, 'arenas:start', {
      ideas: IDEAS,
      agents: CHAMPIONS,
      provider: 'simulated',
      seed: 3,
    });
    expect([started.run.protocol, started.run.ideaSlug, started.estimate]).toEqual(['arena', null, estimate]);
    const tournament = started.tournament ?? '';
    expect((await ends).map((e) => e.status)).toEqual(['completed', 'completed', 'completed']);
    // The follower lets go of it once its last meeting has ended.
    await expect.poll(async () => (await call(app, 'arenas:tournament', { id: tournament })).playing).toBe(false);

    const schedule = await call(app, 'arenas:tournament', { id: tournament });
    const ws = Workspace.open(t.root);
    const service = new RunService(ws);
    const slugOf = Object.fromEntries(IDEAS.map((slug, i) => [CHAMPIONS[i], slug]));
    const byLog = schedule.meetings.map((m) => {
      const summary = service.show(m.run ?? '?').summary as {
        outcome: string;
        judge: { ranking: string[]; scores: Record<string, number> };
      };
      return {
        index: m.index,
        status: 'completed',
        outcome: summary.outcome,
        winner: slugOf[summary.judge.ranking[0] ?? ''],
        scores: Object.fromEntries(Object.entries(summary.judge.scores).map(([a, x]) => [slugOf[a], x])),
      };
    });
    const second = await call(app, 'arenas:get', { id: schedule.meetings[1]?.run ?? '?' });
    ws.close();
    expect({
      ideas: schedule.ideas,
      pairings: schedule.meetings.map((m) => m.pairing),
      first: schedule.meetings[0]?.run,
      meetings: schedule.meetings.map(({ index, status, outcome, winner, scores }) => ({
        index,
        status,
        outcome,
        winner,
        scores,
      })),
      second: second.tournament && { ...second.tournament, agents: second.agents.map((a) => a.id) },
    }).toEqual({
      ideas: [
        { slug: IDEA, title: "A community-owned solar co-op for the neighbourhood's big roofs", champion: 'investor' },
        { slug: OTHER, title: expect.any(String), champion: 'historian' },
        { slug: THIRD, title: expect.any(String), champion: 'regulator' },
      ],
      pairings: [
        [IDEA, OTHER],
        [IDEA, THIRD],
        [OTHER, THIRD],
      ],
      first: started.run.id,
      meetings: byLog,
      second: {
        id: tournament,
        ideas: schedule.ideas,
        pairing: [IDEA, THIRD],
        index: 2,
        of: 3,
        agents: ['investor', 'regulator'],
      },
    });

    // The ideas' table is the CLI's (`ratings --ideas`); each idea played two arenas, and its chart
    // ends at its rating. Tournament arenas rate ideas, so no persona has an Elo yet.
    const ratings = await call(app, 'arenas:ratings', {});
    const report = ideaRatingsReport(t.root);
    expect({
      ideas: ratings.ideas.map(({ history: _, title: __, ...r }) => r),
      last: ratings.ideas.map((r) => [r.slug, r.history.length, r.history[r.history.length - 1]?.after]),
      moved: ratings.ideas.every((r) => r.elo !== 1500),
      personas: ratings.personas,
      counted: [ratings.counted, ratings.tournamentCounted],
    }).toEqual({
      ideas: report.ratings.map(({ id, ...r }) => ({ slug: id, ...r })),
      last: report.ratings.map((r) => [r.id, 2, r.elo]),
      moved: true,
      personas: [],
      counted: [0, 3],
    });
  });

  it('stops at a meeting the researcher stopped: the rest are not started', async () => {
    // Paced, the first meeting is still running when it is stopped.
    const app = await boot({ paceSimulated: true });
    const end = arenaEnd(app);
    const { run, tournament } = await call(app, 'arenas:start', {
      ideas: IDEAS,
      agents: CHAMPIONS,
      provider: 'simulated',
    });
    await call(app, 'runs:cancel', { id: run.id });
    expect((await end).status).toBe('cancelled');
    await expect.poll(async () => (await call(app, 'arenas:tournament', { id: tournament ?? '' })).playing).toBe(false);
    const schedule = await call(app, 'arenas:tournament', { id: tournament ?? '' });
    expect(schedule.meetings.map((m) => [m.run, m.status])).toEqual([
      [run.id, 'cancelled'],
      [null, null],
      [null, null],
    ]);
    expect((await call(app, 'arenas:ratings', {})).ideas).toEqual([]);
  });

  it('refuses a tournament that cannot be played, in words', async () => {
    const app = await boot();
    expect(
      await Promise.all([
        refused(call(app, 'arenas:estimate', { ideas: IDEAS, agents: CHAMPIONS.slice(0, 2), provider: 'simulated' })),
        refused(call(app, 'arenas:estimate', { ideas: IDEAS, topic: 'x', agents: CHAMPIONS, provider: 'simulated' })),
        refused(
          call(app, 'arenas:start', {
            ideas: IDEAS,
            agents: ['investor', 'investor', 'regulator'],
            provider: 'simulated',
          }),
        ),
        refused(
          call(app, 'arenas:estimate', {
            ideas: IDEAS,
            agents: ['investor', 'judge', 'regulator'],
            provider: 'simulated',
          }),
        ),
        refused(
          call(app, 'arenas:estimate', {
            ideas: IDEAS,
            agents: ['investor', 'regulator', 'judge'],
            provider: 'simulated',
          }),
        ),
        refused(
          call(app, 'arenas:estimate', {
            ideas: [IDEA, 'no-such-idea'],
            agents: CHAMPIONS.slice(0, 2),
            provider: 'simulated',
          }),
        ),
        refused(call(app, 'arenas:start', { ideas: IDEAS, agents: CHAMPIONS, provider: 'anthropic' })),
        refused(call(app, 'arenas:tournament', { id: 'nosuchtournament' })),
      ]).then((errors) => errors.map((e) => [e.code, e.message])),
    ).toEqual([
      ['bad_input', 'agents: a tournament has one champion per idea: as many agents as ideas, in the same order'],
      ['bad_input', 'ideas: a tournament (ideas) asks its own question: give no ideaSlug or topic with it'],
      ['user_error', '--agents: "investor" would champion two ideas'],
      ['user_error', 'not debaters: judge (judge)'],
      // The last idea's champion is checked too (the estimate builds only meetings that cover every idea).
      ['user_error', 'not debaters: judge (judge)'],
      ['user_error', expect.stringContaining('no idea "no-such-idea"')],
      ['user_error', expect.stringMatching(/key/i)],
      ['user_error', 'no arena of a tournament "nosuchtournament" in this workspace'],
    ]);
  });
});

describe('coverage', () => {
  it('answered every channel of core/contract/arenas-channels.ts in this file', () => {
    expect(Object.keys(arenasChannels).filter((c) => !answered.has(c as Channel))).toEqual([]);
  });
});
