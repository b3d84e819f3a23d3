import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Runner } from '../../core/engine/runner';
import type { Llm, LlmRequest } from '../../core/ports/llm';
import { createSimulatedLlm } from '../../core/sim/simulated-llm';
import { runArenaReplay } from '../../core/arena/replay';
import type { ArenaBrief } from '../../core/arena/live/briefs';
import { arenaEntry } from '../../core/arena/live/protocol';
import { NO_RESOURCES } from '../../core/engine/registry';
import type { ArenaSetup } from '../../core/arena/live/setup';
import type { RevisionAnswer, SimilarityAnswer } from '../../core/arena/answers';
import { judgedAgreements } from '../../core/arena/judged-agreements';
import { revisionEdits } from '../../core/arena/revision-edits';
import { jaccard, lexicalTerms, pairsOf, proposalText } from '../../core/arena/similarity';
import type { ProposalVersion } from '../../core/arena/state';

// The live protocol runs on the same transitions as the replay: the one runner fed the answers of a
// script (each revision sent as edits, as a model sends it live) ends with the script's result; and
// the simulator plays whole arenas to an end.

const root = join(import.meta.dirname, '..', '..');
const persona = (id: string) => ({ id, name: id, systemPrompt: `You are ${id}.`, tier: 'standard' as const });

function setupOf(header: Record<string, unknown>): ArenaSetup {
  return arenaEntry.setup.parse({
    question: header.topic,
    agents: (header.agents as { id: string }[]).map((a) => persona(a.id)),
    judge: persona(header.judge as string),
    trickster: persona('trickster'),
    config: header.config ?? {},
    ratings: header.ratings ?? {},
  });
}

/** A model that answers each request from the script line its brief names. */
function scripted(lines: Record<string, unknown>[]): Llm & { asked: string[]; tools: string[][] } {
  const used = new Set<number>();
  const asked: string[] = [];
  const tools: string[][] = [];
  return {
    provider: 'script',
    asked,
    tools,
    async call<T>(request: LlmRequest<T>) {
      tools.push((request.toolset ?? []).map((t) => t.name));
      const brief = request.brief as ArenaBrief;
      const agent = 'agent' in brief ? brief.agent : undefined;
      const round = 'round' in brief ? String(brief.round) : undefined;
      const i = lines.findIndex(
        (l, k) =>
          !used.has(k) &&
          l.type === brief.kind &&
          (agent === undefined || l.agent === agent) &&
          (brief.kind !== 'revision' && brief.kind !== 'similarity' ? true : String(l.round) === round),
      );
      if (i < 0) throw new Error(`no line for ${brief.kind} ${agent ?? ''} ${round ?? ''}`);
      used.add(i);
      asked.push(`${brief.kind}:${agent ?? '-'}`);
      const line = (lines[i] as { output: unknown }).output;
      // A live revision is sent as edits to the agent's current version; the engine applies them.
      // The judged measure's pairs are keyed by pair names.
      const value =
        brief.kind === 'revision' || brief.kind === 'refinement'
          ? revisionEdits(brief.proposals[brief.agent] as ProposalVersion, line as RevisionAnswer)
          : brief.kind === 'similarity'
            ? judgedAgreements(line as SimilarityAnswer)
            : line;
      const checked = request.check?.(request.schema.parse(value));
      if (checked && !checked.ok) throw new Error(checked.problems.join('; '));
      return {
        value: request.schema.parse(value),
        calls: [
          {
            provider: 'script',
            model: 'script',
            tier: request.tier,
            usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 },
            latencyMs: 0,
            costUsd: 0,
            ok: true,
          },
        ],
      };
    },
  };
}

async function runLive(setup: ArenaSetup, llm: Llm) {
  const records: unknown[] = [];
  const runner = new Runner(
    arenaEntry.protocol(setup, { now: () => 0, resources: NO_RESOURCES }),
    arenaEntry.init(setup, NO_RESOURCES),
    { budgetUsd: null, timeLimitMs: null, concurrency: 4 },
    { llm, append: (r) => records.push(...r), estimateCostUsd: () => 0, now: () => 0 },
  );
  const out = await runner.run();
  return { status: out.status, summary: arenaEntry.summary(out.state), records, state: out.state };
}

describe('the live arena', () => {
  it('ends every script of the tests with the replay result when the runner is fed its answers', async () => {
    const files = [
      join(root, 'tests/fixtures/arena/arena-replay-small.jsonl'),
      ...['hollow-trickster', 'split-extended', 'judged-early', 'judged-lead'].map((n) =>
        join(root, `tests/arena/scripts/${n}.jsonl`),
      ),
    ];
    const live: Record<string, unknown> = {};
    const replayed: Record<string, unknown> = {};
    const tools: Record<string, string[][]> = {};
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      const lines = text
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      const [header, ...answers] = lines as [Record<string, unknown>, ...Record<string, unknown>[]];
      const llm = scripted(answers);
      const run = await runLive(setupOf(header), llm);
      live[file] = [run.status, run.summary];
      replayed[file] = ['completed', runArenaReplay(text)];
      tools[file.split('/').at(-1) as string] = [...new Set(llm.tools.map((t) => t.join(' ')))].map((t) =>
        t.split(' '),
      );
    }
    expect(live).toEqual(replayed);
    // One tool set for every request of an arena (they share the cached head), holding only the
    // shapes its setup can ask for: the judged agreement with the judged measure, the challenge
    // with the trickster on.
    const base = ['arena_proposal', 'arena_critiques', 'arena_revision'];
    expect(tools).toEqual({
      'arena-replay-small.jsonl': [[...base, 'arena_vote', 'arena_judgment']],
      'hollow-trickster.jsonl': [[...base, 'arena_vote', 'arena_challenge', 'arena_judgment']],
      'split-extended.jsonl': [[...base, 'arena_vote', 'arena_judgment']],
      'judged-early.jsonl': [[...base, 'arena_similarity', 'arena_vote', 'arena_challenge', 'arena_judgment']],
      'judged-lead.jsonl': [[...base, 'arena_vote', 'arena_judgment']],
    });
  });

  it('is played offline by the simulator to an end, hollow consensus included, the same way for a seed', async () => {
    const outcomes = new Set<string>();
    let challenged = 0;
    for (let seed = 1; seed <= 12; seed++) {
      const setup = arenaEntry.setup.parse({
        question: 'Should the town build a solar co-op?',
        agents: ['ada', 'bo', 'cy', 'di'].slice(0, 3 + (seed % 2)).map(persona),
        judge: persona('judge'),
        trickster: persona('trickster'),
        config: { trickster: true, similarity: seed % 3 === 0 ? 'judged' : 'lexical' },
      });
      const run = await runLive(setup, createSimulatedLlm(seed));
      expect(run.status).toBe('completed');
      outcomes.add(String(run.summary.outcome));
      if (run.summary.firstVote) challenged++;
      if (seed === 5) expect((await runLive(setup, createSimulatedLlm(seed))).summary).toEqual(run.summary);
    }
    expect({ outcomes: [...outcomes].sort(), someChallenged: challenged > 0 }).toEqual({
      outcomes: ['CONSENSUS', 'JUDGED', 'SPLIT'],
      someChallenged: true,
    });
  });

  it('revises up to three rounds, scoring agreement after each, and refines only when they never agreed', async () => {
    // Simulated seeds with three agents, lexical: 1 agrees after round 3, 13 after round 5, and 2
    // never does, so the refinement (round 6) follows its three revision rounds.
    const played: Record<number, unknown> = {};
    for (const seed of [1, 13, 2]) {
      const setup = arenaEntry.setup.parse({
        question: 'Should the town build a solar co-op?',
        agents: ['ada', 'bo', 'cy'].map(persona),
        judge: persona('judge'),
        config: { similarity: 'lexical' },
      });
      const { state } = await runLive(setup, createSimulatedLlm(seed));
      // Each round's score recomputed from the versions that round left: the mean of every pair's
      // Jaccard over the proposals' unigrams and bigrams.
      const at = (agent: string, round: number) =>
        (state.proposals[agent] ?? []).find((v) => v.round === round) as ProposalVersion;
      const recomputed = state.convergence.map((c) => {
        const pairs = pairsOf(['ada', 'bo', 'cy']).map(([a, b]) =>
          jaccard(lexicalTerms(proposalText(at(a, c.round))), lexicalTerms(proposalText(at(b, c.round)))),
        );
        return pairs.reduce((x, y) => x + y, 0) / pairs.length;
      });
      played[seed] = {
        convergence: state.convergence.map((c, i) => [c.round, c.measure, c.score === recomputed[i], c.score >= 0.8]),
        versions: (state.proposals.ada ?? []).map((v) => v.round),
        early: state.earlyConsensus,
        votedAndJudged: [state.votes.length > 0, state.judgments.length > 0, state.outcome !== null],
      };
    }
    expect(played).toEqual({
      1: {
        convergence: [[3, 'lexical', true, true]],
        versions: [1, 3],
        early: true,
        votedAndJudged: [true, true, true],
      },
      13: {
        convergence: [
          [3, 'lexical', true, false],
          [4, 'lexical', true, false],
          [5, 'lexical', true, true],
        ],
        versions: [1, 3, 4, 5],
        early: true,
        votedAndJudged: [true, true, true],
      },
      2: {
        convergence: [
          [3, 'lexical', true, false],
          [4, 'lexical', true, false],
          [5, 'lexical', true, false],
        ],
        versions: [1, 3, 4, 5, 6],
        early: false,
        votedAndJudged: [true, true, true],
      },
    });
  });
});
