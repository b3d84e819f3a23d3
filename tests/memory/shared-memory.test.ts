// Memory shared by every protocol (COUNCIL-PROTOCOL.md, "Memory"): a completed crux debate writes
// its episode to council/memory/episodes.jsonl, and the next evaluation of the same idea carries it
// in every request's shared head; a workspace with no episode sends exactly what it always did.
import { cpSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appRoot } from '../../core/node/app-root';
import { DebateService } from '../../core/node/debates/debate-service';
import { type Provider, type ProviderName, providerFor } from '../../core/node/debates/providers';
import { EvaluationService } from '../../core/node/evaluations/evaluation-service';
import { workspaceMemory } from '../../core/node/memory/workspace-memory';
import { Workspace } from '../../core/node/workspace/workspace';
import { parseEpisodes } from '../../core/memory/episode';
import { episodeText } from '../../core/memory/relevance';
import type { LlmRequest } from '../../core/ports/llm';
import { cli } from '../helpers/run-cli';
import { tempWorkspace } from '../helpers/temp-workspace';

const IDEA = 'community-solar-coop';
const HEADING = '# What earlier runs in this workspace learned';

let root: string;
let cleanup: () => void;
let ws: Workspace;

beforeEach(() => {
  ({ root, cleanup } = tempWorkspace('crucible-memory-'));
  cpSync(join(appRoot(), 'ideas', IDEA), join(root, 'ideas', IDEA), { recursive: true });
  ws = Workspace.open(root);
  ws.sync();
});
afterEach(() => {
  ws.close();
  cleanup();
});

/** The simulated provider, with every request it is sent kept (system prompt and messages as sent). */
function recording(): {
  providers: (name: ProviderName, workspace: string, seed: number | null) => Provider;
  sent: () => string[];
} {
  let requests: LlmRequest<unknown>[] = [];
  return {
    providers: (name, workspace, seed) => {
      const inner = providerFor(name, workspace, seed);
      return {
        ...inner,
        llm: {
          ...inner.llm,
          call: (request) => {
            requests.push(request as LlmRequest<unknown>);
            return inner.llm.call(request);
          },
        } as Provider['llm'],
      };
    },
    sent: () => {
      const texts = requests.map((r) => `${r.system ?? ''}\n${JSON.stringify(r.messages)}`);
      requests = [];
      return texts;
    },
  };
}

const episodesOnDisk = () => {
  try {
    return parseEpisodes(readFileSync(join(root, 'council/memory/episodes.jsonl'), 'utf8')).episodes;
  } catch {
    return [];
  }
};

describe('memory shared by every protocol', () => {
  it("puts a crux debate's episode in the next evaluation's brief for the same idea, and nothing in a brief before any episode", async () => {
    const rec = recording();
    const debate = await new DebateService(ws, rec.providers).start({
      ideaSlug: IDEA,
      agents: ['ethicist', 'investor'],
      provider: 'simulated',
      seed: 7,
    });
    const debateRequests = rec.sent();
    const [episode] = episodesOnDisk();

    const evaluation = await new EvaluationService(ws, rec.providers).evaluate(IDEA, {
      mode: 'quick',
      provider: 'simulated',
      seed: 3,
    });
    const evaluationRequests = rec.sent();
    const all = episodesOnDisk();
    const evaluationEpisode = all.find((e) => e.protocol === 'evaluation');

    expect({
      debate: debate.outcome.status,
      episode: episode && { key: episode.key, protocol: episode.protocol, idea: episode.idea, task: episode.task },
      // Before any episode, no request carries a memory block (so a workspace without one sends what it always did).
      debateWithMemory: debateRequests.filter((t) => t.includes(HEADING)).length,
      // Every request of the evaluation carries the debate's episode, word for word, under the heading.
      evaluationRequests: evaluationRequests.length > 0,
      evaluationWithEpisode: evaluationRequests.filter(
        (t) => t.includes(HEADING) && t.includes(episodeText(episode as never)),
      ).length,
      evaluationHeader: evaluation.document.evaluationId,
      keys: all.map((e) => e.key),
      evaluationIdea: evaluationEpisode?.idea,
    }).toEqual({
      debate: 'completed',
      episode: { key: `crux:${debate.id}`, protocol: 'crux', idea: IDEA, task: expect.any(String) },
      debateWithMemory: 0,
      evaluationRequests: true,
      evaluationWithEpisode: evaluationRequests.length,
      evaluationHeader: expect.any(String),
      keys: [`crux:${debate.id}`, `evaluation:${evaluation.document.evaluationId}`],
      evaluationIdea: IDEA,
    });
  });

  it("puts an evaluation's episode in the next crux debate's brief and the next arena's for the same idea", async () => {
    const memory = workspaceMemory(root);
    memory.record('evaluation', 'earlier', {
      task: 'Evaluate the solar co-op',
      idea: IDEA,
      outcome: 'PURSUE 7.4',
      cruxes: ['Will the school let us use its roof for twenty years?'],
      keyLearnings: ['Weakness: the roof lease is unsigned.'],
    });
    const [episode] = episodesOnDisk();
    const line = episodeText(episode as never);
    const rec = recording();
    await new DebateService(ws, rec.providers).start({
      ideaSlug: IDEA,
      agents: ['ethicist', 'investor'],
      provider: 'simulated',
      seed: 7,
    });
    const debateRequests = rec.sent();
    ws.close();
    // The arena keeps its context brief in its log's header: what every agent reads first.
    const arena = cli([
      'arena',
      '--idea',
      IDEA,
      '--agents',
      'investor,ethicist',
      '--judge',
      'judge',
      '--provider',
      'simulated',
      '--seed',
      '1',
      '--workspace',
      root,
      '--json',
    ]);
    ws = Workspace.open(root);
    const logs = join(root, 'ideas', IDEA, 'arenas');
    const header = JSON.parse(
      readFileSync(join(logs, readdirSync(logs)[0] as string), 'utf8').split('\n')[0] as string,
    );
    expect({
      debateRequests: debateRequests.length > 0,
      debateWithEpisode: debateRequests.filter((t) => t.includes(HEADING) && t.includes(line)).length,
      arena: arena.code,
      arenaBrief: [header.header.setup.context.includes(HEADING), header.header.setup.context.includes(line)],
    }).toEqual({
      debateRequests: true,
      debateWithEpisode: debateRequests.length,
      arena: 0,
      arenaBrief: [true, true],
    });
  }, 120_000);

  it('writes one line per run however often the run finishes, and keeps every line of two writers', () => {
    const memory = workspaceMemory(root);
    const draft = {
      task: 'Solar co-ops',
      idea: IDEA,
      outcome: 'consensus',
      cruxes: [],
      keyLearnings: ['Agreed: demand is there'],
    };
    memory.record('crux', 'r1', draft);
    memory.record('crux', 'r1', { ...draft, outcome: 'written again' });
    // A second writer (another process's port on the same folder) appends between two of ours.
    workspaceMemory(root).record('arena', 'a1', { ...draft, task: 'Kites' });
    memory.record('evaluation', 'e1', draft);
    expect(memory.read().episodes.map((e) => [e.key, e.outcome])).toEqual([
      ['crux:r1', 'consensus'],
      ['arena:a1', 'consensus'],
      ['evaluation:e1', 'consensus'],
    ]);
  });
});
