import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentMove } from '../../core/crux/live/answer';
import type { TurnBrief } from '../../core/crux/live/brief';
import { jsonSchemaOf } from '../../core/llm/prices';
import { appRoot } from '../../core/node/app-root';
import { DebateService } from '../../core/node/debates/debate-service';
import { providerFor } from '../../core/node/debates/providers';
import { parseMarkdown } from '../../core/node/markdown';
import { Workspace } from '../../core/node/workspace/workspace';
import type { LlmRequest } from '../../core/ports/llm';
import { requestFixture, requestWords } from '../helpers/request-fixture';
import { tempWorkspace } from '../helpers/temp-workspace';

// What a model is told in a crux debate on an idea, captured from the requests of a real run (the
// simulator answers them) and kept under tests/fixtures/requests so a change to a brief shows.

const IDEA = 'soil-moisture-lora';
const AGENTS = ['optimist-engineer', 'skeptical-economist', 'field-researcher'];
const README = parseMarkdown(readFileSync(join(appRoot(), 'ideas', IDEA, 'README.md'), 'utf8'));
const today = new Date().toISOString().slice(0, 10);

/**
 * A careful model frames the crux from the first open question it was given; otherwise it plays as the
 * simulator. (This only shapes the captured requests; that a debate turns on the idea's content is held
 * by idea-content.test.ts, with answers from the fixture corpus.)
 */
function firstOpenQuestion(request: LlmRequest<unknown>): string | null {
  // Wrapped lines of a paragraph are joined; headings, list items and blank lines still break.
  const text = [request.system, ...request.messages.map((m) => m.content)].join('\n').replace(/\n(?![\n#>-])/g, ' ');
  const sentences = text.split(/(?<=[.?!])\s+|\n+/).map((s) => s.replace(/\s+/g, ' ').trim());
  return sentences.find((s) => s.endsWith('?') && !/["“”]/.test(s) && s.split(' ').length >= 8) ?? null;
}

let root: string;
let cleanup: () => void;
let ws: Workspace;
const requests: LlmRequest<unknown>[] = [];

beforeAll(async () => {
  ({ root, cleanup } = tempWorkspace('crucible-briefs-'));
  cpSync(join(appRoot(), 'ideas', IDEA), join(root, 'ideas', IDEA), { recursive: true });
  ws = Workspace.open(root);
  ws.sync();
  const service = new DebateService(ws, (name, workspace, seed) => {
    const provider = providerFor(name, workspace, seed);
    return {
      ...provider,
      llm: {
        provider: provider.llm.provider,
        call: async <T>(request: LlmRequest<T>) => {
          requests.push(request as LlmRequest<unknown>);
          const result = await provider.llm.call(request);
          const move = result.value as AgentMove;
          const question = firstOpenQuestion(request as LlmRequest<unknown>);
          if (request.schemaName === 'crux_move' && move.move === 'PROPOSE_CRUX' && question) {
            return { ...result, value: { ...move, meta: { ...move.meta, question } } as T };
          }
          return result;
        },
      },
    };
  });
  await service.start({ ideaSlug: IDEA, agents: AGENTS, provider: 'simulated', seed: 1 });
}, 120_000);
afterAll(() => {
  ws?.close();
  cleanup?.();
});

const words = requestWords;
const fixture = requestFixture;
const turns = () => requests.filter((r) => r.schemaName === 'crux_move');
const stageOf = (r: LlmRequest<unknown>) => (r.brief as TurnBrief).thread.stage;

describe('what the agents of a crux debate on an idea are told', () => {
  it('debaters read the idea before their persona, the roster with sides and today, early and late', async () => {
    const early = turns()[0] as LlmRequest<unknown>;
    const late = turns().findLast((r) => stageOf(r) === 'EVIDENCE') as LlmRequest<unknown>;
    await expect(fixture(early)).toMatchFileSnapshot('../fixtures/requests/debater-early.json');
    await expect(fixture(late)).toMatchFileSnapshot('../fixtures/requests/debater-late.json');
    const header = ws.db.prepare('SELECT topic FROM runs').get() as { topic: string };
    const facts = (r: LlmRequest<unknown>, who: string) => ({
      readme: words(r).includes(README.body.trim()),
      summary: words(r).includes(String(README.data.summary)),
      ideaBeforePersona: r.system.indexOf(README.body.trim()) < r.system.indexOf('You are the '),
      today: words(r).includes(`Today is ${today}.`),
      roster: AGENTS.every((id) =>
        new RegExp(`\\[${id}\\](?: \\(you\\))?: (side (YES|NO|UNCERTAIN)|not committed)`).test(words(r)),
      ),
      topClaimsFromSummary: words(r).includes(`as planned: ${String(README.data.summary).replace(/\.$/, '')}`),
      speaker: (r.brief as TurnBrief).agent.id === who || who === '*',
    });
    const all = {
      readme: true,
      summary: true,
      ideaBeforePersona: true,
      today: true,
      roster: true,
      topClaimsFromSummary: true,
      speaker: true,
    };
    expect({ early: facts(early, '*'), late: facts(late, '*'), topic: header.topic }).toEqual({
      early: all,
      late: all,
      topic: README.data.title,
    });
    // Late in the debate the roster carries sides, confidences and falsifiers.
    expect(words(late)).toMatch(/\]: side (YES|NO), confidence [\d.]+, falsifier on record/);
  });

  it('the crystallizer reads the roster and top claims under its own rules, with a schema keyed by the agent ids', async () => {
    const analysis = requests.find((r) => r.schemaName === 'crux_analysis') as LlmRequest<unknown>;
    await expect(fixture(analysis)).toMatchFileSnapshot('../fixtures/requests/crystallizer.json');
    const schema = jsonSchemaOf(analysis.schema as never) as {
      properties: Record<string, { properties?: Record<string, unknown> }>;
    };
    expect({
      positionKeys: Object.keys(schema.properties.positions?.properties ?? {}),
      counterfactualKeys: Object.keys(schema.properties.counterfactual?.properties ?? {}),
      debaterRules: analysis.system.includes('Each thread passes through three stages'),
      readme: words(analysis).includes(README.body.trim()),
      roster: AGENTS.every((id) => words(analysis).includes(`[${id}]: `)),
      today: words(analysis).includes(`Today is ${today}.`),
      budgetGrowsWithAgents: analysis.maxTokens > 1500,
    }).toEqual({
      positionKeys: AGENTS,
      counterfactualKeys: AGENTS,
      debaterRules: false,
      readme: true,
      roster: true,
      today: true,
      budgetGrowsWithAgents: true,
    });
  });
});
