import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvaluationBrief } from '../../core/evaluation/live/requests';
import { jsonSchemaOf } from '../../core/llm/prices';
import { appRoot } from '../../core/node/app-root';
import { providerFor } from '../../core/node/debates/providers';
import { ClassificationService } from '../../core/node/evaluations/classification-service';
import { DevelopmentService } from '../../core/node/evaluations/development-service';
import { EvaluationService } from '../../core/node/evaluations/evaluation-service';
import { parseMarkdown } from '../../core/node/markdown';
import { loadPersonas } from '../../core/node/personas/load-personas';
import { Workspace } from '../../core/node/workspace/workspace';
import type { LlmRequest } from '../../core/ports/llm';
import { requestFixture, requestWords } from '../helpers/request-fixture';
import { tempWorkspace } from '../helpers/temp-workspace';

// What each agent of an evaluation (and the developer and classifier) is told, captured from the
// requests of a standard evaluation answered by the simulator, kept under tests/fixtures/requests.

const IDEA = 'soil-moisture-lora';
const README = parseMarkdown(readFileSync(join(appRoot(), 'ideas', IDEA, 'README.md'), 'utf8')).body.trim();
const OTHER = 'community-solar-coop';
const OTHER_README = parseMarkdown(readFileSync(join(appRoot(), 'ideas', OTHER, 'README.md'), 'utf8')).body.trim();
const today = new Date().toISOString().slice(0, 10);
const personas = new Map(loadPersonas(null).personas.map((p) => [p.id, p]));

let root: string;
let cleanup: () => void;
let ws: Workspace;
const requests: LlmRequest<unknown>[] = [];

beforeAll(async () => {
  ({ root, cleanup } = tempWorkspace('crucible-eval-briefs-'));
  for (const slug of [IDEA, OTHER])
    cpSync(join(appRoot(), 'ideas', slug), join(root, 'ideas', slug), { recursive: true });
  ws = Workspace.open(root);
  ws.sync();
  const capturing = (...args: Parameters<typeof providerFor>) => {
    const provider = providerFor(...args);
    return {
      ...provider,
      llm: {
        provider: provider.llm.provider,
        call: <T>(request: LlmRequest<T>) => {
          // The brief holds the live state, which moves on: keep it as it was when asked.
          requests.push({ ...(request as LlmRequest<unknown>), brief: structuredClone(request.brief) });
          return provider.llm.call(request);
        },
      },
    };
  };
  await new EvaluationService(ws, capturing).evaluate(IDEA, { mode: 'standard', provider: 'simulated', seed: 2 });
  // The soil idea's questions are all asked already: the developer is asked about the solar co-op.
  await new DevelopmentService(ws, capturing).develop(OTHER, { provider: 'simulated' });
  await new ClassificationService(ws, capturing).classify(IDEA, { provider: 'simulated' });
}, 120_000);
afterAll(() => {
  ws?.close();
  cleanup?.();
});

const words = requestWords;
const fixture = requestFixture;
const brief = (r: LlmRequest<unknown>) => r.brief as EvaluationBrief;
const byRole = (role: string) =>
  requests.find((r) => brief(r)?.protocol === 'evaluation' && brief(r).kind === role) as LlmRequest<unknown>;
const keysOf = (schema: unknown, path: string[]): string[] => {
  let node = schema as { properties?: Record<string, unknown>; items?: unknown };
  for (const p of path) node = (p === '[]' ? node.items : node.properties?.[p]) as typeof node;
  return Object.keys(node.properties ?? {});
};

describe('what each agent of an evaluation is told', () => {
  it('every kind carries the idea and the date, and is kept as a fixture', async () => {
    const kinds = {
      evaluator: byRole('evaluator'),
      'red-team': byRole('redteam'),
      defence: byRole('defense'),
      arbiter: byRole('arbiter'),
      synthesis: byRole('synthesis'),
      narrative: byRole('narrative'),
      developer: requests.find((r) => r.schemaName === 'questions') as LlmRequest<unknown>,
      classifier: requests.find((r) => r.schemaName === 'classification') as LlmRequest<unknown>,
    };
    const carried: Record<string, { idea: boolean; today: boolean }> = {};
    for (const [kind, request] of Object.entries(kinds)) {
      await expect(fixture(request)).toMatchFileSnapshot(`../fixtures/requests/${kind}.json`);
      carried[kind] = { idea: words(request).includes(kind === 'developer' ? OTHER_README : README), today: words(request).includes(`Today is ${today}.`) };
    }
    const all = Object.fromEntries(Object.keys(kinds).map((k) => [k, { idea: true, today: true }]));
    expect(carried).toEqual(all);
  });

  it('each gets what its prompt names: reasoning, scale and direction, earlier rulings, current confidences, reasons', () => {
    const red = byRole('redteam');
    const defence = byRole('defense');
    const arbiter = byRole('arbiter');
    const synthesis = byRole('synthesis');
    const narrative = byRole('narrative');
    const target =
      brief(red).ask.role === 'redteam' ? ((brief(red).ask as { targets: string[] }).targets[0] ?? '') : '';
    const criterion = (r: LlmRequest<unknown>) => (brief(r).ask as { criterion: string }).criterion;
    const synthesized = (brief(synthesis).ask as { touched: string[] }).touched;
    const ruled = requests
      .filter((r) => brief(r)?.ask?.role === 'arbiter')
      .find((r) => brief(r).state.challenges.some((c) => c.criterion === criterion(r) && c.ruling));
    expect({
      redTeamQuotesReasoning: words(red).includes(brief(red).state.scores[target]?.reasoning ?? '?'),
      defenceScale: words(defence).includes('Scale (higher is always better for the idea)'),
      defenceReasoning: words(defence).includes(brief(defence).state.scores[criterion(defence)]?.reasoning ?? '?'),
      arbiterScale: words(arbiter).includes('Scale (higher is always better for the idea)'),
      arbiterReasoning: words(arbiter).includes(brief(arbiter).state.scores[criterion(arbiter)]?.reasoning ?? '?'),
      arbiterEarlierRulings: ruled ? words(ruled).includes('Ruling: ') : 'no second exchange',
      synthesisConfidences: synthesized.every((id) =>
        words(synthesis).includes(
          `${id} (current score ${brief(synthesis).state.scores[id]?.score}/10, confidence ${brief(synthesis).state.scores[id]?.confidence})`,
        ),
      ),
      narrativeReasons: brief(narrative).state.criteria.every((c) =>
        words(narrative).includes(brief(narrative).state.scores[c.id]?.reasoning ?? '?'),
      ),
      narrativeScales: words(narrative).includes('Scale ('),
      reasoningFirst: {
        evaluator: keysOf(jsonSchemaOf(byRole('evaluator').schema as never), ['scores', '[]']).slice(0, 3),
        arbiter: keysOf(jsonSchemaOf(arbiter.schema as never), [])[0],
        synthesis: keysOf(jsonSchemaOf(synthesis.schema as never), ['criteria', '[]']).slice(0, 2),
      },
    }).toEqual({
      redTeamQuotesReasoning: true,
      defenceScale: true,
      defenceReasoning: true,
      arbiterScale: true,
      arbiterReasoning: true,
      arbiterEarlierRulings: true,
      synthesisConfidences: true,
      narrativeReasons: true,
      narrativeScales: false,
      reasoningFirst: {
        evaluator: ['criterion', 'reasoning', 'score'],
        arbiter: 'reasoning',
        synthesis: ['criterion', 'resolutionReasoning'],
      },
    });
  });

  it('developer and classifier are told one number by their persona, their request and their schema', () => {
    const developer = requests.find((r) => r.schemaName === 'questions') as LlmRequest<unknown>;
    const classifier = requests.find((r) => r.schemaName === 'classification') as LlmRequest<unknown>;
    const dev = jsonSchemaOf(developer.schema as never) as { properties: { questions: { maxItems: number } } };
    const cls = jsonSchemaOf(classifier.schema as never) as { properties: { tags: { maxItems: number } } };
    expect({
      developer: {
        schema: dev.properties.questions.maxItems,
        request: /at most (\d+) questions/.exec(words(developer))?.[1],
        persona: /at most five/.test(personas.get('developer')?.systemPrompt ?? ''),
      },
      classifier: {
        schema: cls.properties.tags.maxItems,
        request: /never more than (\d+)/.exec(classifier.messages.map((m) => m.content).join('\n'))?.[1],
        persona: /never more than eight/.test(personas.get('classifier')?.systemPrompt ?? ''),
        personaAsksConfidencePerTag: /For every assignment give a confidence/.test(
          personas.get('classifier')?.systemPrompt ?? '',
        ),
      },
    }).toEqual({
      developer: { schema: 3, request: '3', persona: false },
      classifier: { schema: 8, request: '8', persona: true, personaAsksConfidencePerTag: false },
    });
  });
});
