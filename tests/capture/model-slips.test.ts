import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { appRoot } from '../../core/node/app-root';
import { CaptureService, type CaptureSource } from '../../core/node/capture/capture-service';
import type { Provider } from '../../core/node/debates/providers';
import { createAnthropicLlm } from '../../core/node/llm/anthropic';
import { loadModelsConfig } from '../../core/node/llm/prices-loader';
import { Workspace } from '../../core/node/workspace/workspace';
import { FakeAnthropic, modelLike } from '../fakes/fake-anthropic';
import { SLIP_KINDS } from '../fakes/model-slips';
import { simulatorResponder } from '../fakes/simulator-responder';
import { tempWorkspace } from '../helpers/temp-workspace';

/**
 * The model's placement of a capture through the real SDK, against a fake server that answers as
 * the simulator would and slips like a model on most answers: slugs written as names, decisions in
 * lower case, JSON in prose, no tool call, an answer cut off. Each is read or re-asked, and the
 * decision is the one the simulator meant.
 */

const texts: CaptureSource[] = [
  {
    kind: 'text',
    title: 'Solar on the big roofs',
    text: "A member-owned cooperative that puts solar panels on the neighbourhood's large flat roofs, sells the power to the buildings at a discount, and pays members a modest return.",
  },
  {
    kind: 'text',
    title: 'Batteries for the co-op',
    text: 'Store the power from the school roof in a shared battery so members can use it in the evening.',
  },
  {
    kind: 'text',
    title: 'Repair café for e-bikes',
    text: 'Neighbours fix e-bikes and small electronics together on Saturday mornings.',
  },
  {
    kind: 'text',
    title: 'Sourdough by bicycle',
    text: 'A weekly sourdough bread subscription delivered by bicycle to offices.',
  },
];

let ws: Workspace;
let cleanup = () => {};
let fake: FakeAnthropic | null = null;
beforeAll(() => {
  const temp = tempWorkspace('crucible-capture-slips-');
  cleanup = temp.cleanup;
  cpSync(join(appRoot(), 'ideas'), join(temp.root, 'ideas'), { recursive: true });
  ws = Workspace.open(temp.root);
  ws.sync();
});
afterEach(async () => {
  await fake?.close();
  fake = null;
});
afterAll(() => {
  ws.close();
  cleanup();
});

describe('a capture placed by a model that slips', () => {
  it('reads or re-asks every slip, and decides as the simulator meant', { timeout: 60_000 }, async () => {
    const prices = loadModelsConfig(null);
    const decide = (c: Awaited<ReturnType<CaptureService['classify']>>['classification']) => [
      c.decision,
      c.slug,
      c.candidates.map((x) => x.slug),
      c.inspiredBy,
    ];
    const meant = [];
    const slipped = [];
    const repairs: string[] = [];
    const slips = new Set<string>();
    const offline = new CaptureService(ws);
    for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
      fake = new FakeAnthropic({
        responder: simulatorResponder(seed),
        ...modelLike({ rate: 0.6, seed, kinds: SLIP_KINDS.filter((k) => k !== 'unknown_id') }),
      });
      await fake.start();
      const url = fake.baseURL;
      const provider = (): Provider => ({
        llm: createAnthropicLlm({ apiKey: 'test-key', baseURL: url, prices, maxRetries: 0, sendBriefHeader: true }),
        estimate: () => 0,
        likely: () => 0,
      });
      const service = new CaptureService(ws, provider);
      for (const source of texts) {
        meant.push(decide((await offline.classify(source, { provider: 'simulated' })).classification));
        const result = await service.classify(source, { provider: 'anthropic' });
        slipped.push(decide(result.classification));
        repairs.push(...result.repairs);
      }
      for (const r of fake.requests) if (r.slip) slips.add(r.slip);
      await fake.close();
      fake = null;
    }
    expect({
      slipped,
      slips: [...slips].sort(),
      namesRead: repairs.some((r) => /^(slug|candidates\[0\]|inspiredBy): ".*" read as [a-z-]+$/.test(r)),
      casesRead: repairs.some((r) => /^decision: "[a-z]+" read as "[A-Z]+"$/.test(r)),
    }).toEqual({
      slipped: meant,
      slips: ['display_names', 'enum_case', 'max_tokens', 'no_tool', 'prose_json'],
      namesRead: true,
      casesRead: true,
    });
  });
});
