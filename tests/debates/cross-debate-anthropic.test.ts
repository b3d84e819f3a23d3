import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { ChannelOutput } from '../../core/contract';
import { appRoot } from '../../core/node/app-root';
import { createApp } from '../../core/node/app/create-app';
import type { FakeRequest, FakeStep } from '../fakes/fake-anthropic';
import { fakeAnthropicWorkspace } from '../helpers/fake-anthropic-workspace';
import { RELATED_IDEAS, runRelatedDebates } from '../helpers/related-debates';

// The cross-debate analysis on the model path: the three simulated debates over related ideas
// (tests/helpers/related-debates.ts), then `cruxes:check` on the anthropic provider, through the
// real SDK and adapter against the fake server. The fake reads each prompt as a model would: two
// tariff questions are one question (and the second call agrees); the rooftop share holds up a
// tariff question (SUPPORTS, sure enough for a second call), which the second reader accepts when
// the rooftop question is crux A and turns down when it is B.

/** The text of a request's conversation. */
const said = (request: FakeRequest): string => JSON.stringify(request.body?.messages ?? []);
const questionsOf = (text: string) =>
  [...text.matchAll(/Crux [AB] \(debate [^)]*\): ([^\\]*?\?)/g)].map((m) => m[1] ?? '');

function reader(request: FakeRequest): FakeStep {
  const tool = String(request.body?.tool_choice?.name);
  const text = said(request);
  const [a = '', b = ''] = questionsOf(text);
  if (tool === 'crux_relation') {
    if (a.includes('tariff') && b.includes('tariff'))
      return {
        kind: 'answer',
        input: {
          relation: 'DUPLICATE',
          confidence: 0.92,
          sketch: 'Both ask whether the same tariff passes 30 cents by 2028.',
        },
      };
    return {
      kind: 'answer',
      input: {
        relation: 'SUPPORTS',
        deeper: a.includes('rooftop') ? 'A' : 'B',
        confidence: 0.84,
        sketch: 'More rooftop output at noon changes what the tariff must recover.',
      },
    };
  }
  if (tool === 'crux_relation_check') {
    const agrees = text.includes('A and B are the same question') || a.includes('rooftop');
    return {
      kind: 'answer',
      input: { agrees, note: agrees ? 'It holds as stated.' : 'The share turns on roofs, not on the tariff.' },
    };
  }
  return { kind: 'error', status: 400, type: 'invalid_request_error', message: `nothing to say to ${tool}` };
}

const ws = fakeAnthropicWorkspace({
  prefix: 'crucible-cross-debate-',
  idea: RELATED_IDEAS[0] as string,
  fake: { responder: reader },
  apiKey: 'test-key',
});

it('confirms cross-debate duplicates and dependencies with a second model call (or turns one down), and records the answers', async () => {
  for (const idea of RELATED_IDEAS.slice(1))
    cpSync(join(appRoot(), 'ideas', idea), join(ws.root, 'ideas', idea), { recursive: true });
  expect(await runRelatedDebates(ws.root)).toEqual(['completed', 'completed', 'completed']);
  ws.app = await createApp({ workspaceRoot: ws.root, watch: false });
  const before = (await ws.app.invoke('cruxes:graph', {})) as ChannelOutput<'cruxes:graph'>;
  const [solar, bikes, soil] = before.debates.map((d) => d.id);
  const check = (await ws.app.invoke('cruxes:check', { provider: 'anthropic' })) as ChannelOutput<'cruxes:check'>;

  // Each pair: a first call, then, for what passed the thresholds (everything here), a second.
  expect(ws.fake.requests.map((r) => r.body?.tool_choice?.name)).toEqual(
    Array.from({ length: 5 }, () => ['crux_relation', 'crux_relation_check']).flat(),
  );
  // The second reader is told the claim and its reasoning, never how sure the first was.
  const second = ws.fake.requests.filter((r) => r.body?.tool_choice?.name === 'crux_relation_check').map(said);
  expect(second.every((t) => t.includes('Its reasoning: ') && !t.includes('0.92') && !t.includes('0.84'))).toBe(true);

  expect(
    check.relations.map((r) => [r.a, r.b, r.relation, r.from, r.confidence, r.status, r.note, r.provider]),
  ).toEqual([
    [`${solar}/t1`, `${soil}/t1`, 'DUPLICATE', `${solar}/t1`, 0.92, 'CONFIRMED', 'It holds as stated.', 'anthropic'],
    [`${solar}/t1`, `${bikes}/t1`, 'DUPLICATE', `${solar}/t1`, 0.92, 'CONFIRMED', 'It holds as stated.', 'anthropic'],
    [`${bikes}/t1`, `${soil}/t1`, 'DUPLICATE', `${bikes}/t1`, 0.92, 'CONFIRMED', 'It holds as stated.', 'anthropic'],
    [
      `${solar}/t1`,
      `${bikes}/t2`,
      'SUPPORTS',
      `${bikes}/t2`,
      0.84,
      'REJECTED',
      'The share turns on roofs, not on the tariff.',
      'anthropic',
    ],
    [`${bikes}/t2`, `${soil}/t1`, 'SUPPORTS', `${bikes}/t2`, 0.84, 'CONFIRMED', 'It holds as stated.', 'anthropic'],
  ]);
  expect([check.llmCalls, check.costUsd > 0]).toEqual([10, true]);

  // The graph now merges the three tariff questions on the model's word, not on their wording, and
  // the dependency the bike debate found is confirmed across debates too.
  const after = (await ws.app.invoke('cruxes:graph', {})) as ChannelOutput<'cruxes:graph'>;
  expect([
    before.merges.map((m) => m.via),
    after.merges.map((m) => [m.from, m.into, m.via, m.confidence, m.reason]),
    after.edges.map((e) => [e.kind, e.from, e.to, e.debates]),
    after.crossDebate,
  ]).toEqual([
    ['confirmed', 'wording', 'wording'],
    [
      [`${solar}/t2`, `${solar}/t1`, 'confirmed', 0.9, expect.any(String)],
      [`${soil}/t1`, `${solar}/t1`, 'confirmed', 0.92, 'It holds as stated.'],
      [`${bikes}/t1`, `${solar}/t1`, 'confirmed', 0.92, 'It holds as stated.'],
    ],
    [['SUPPORTS', `${bikes}/t2`, `${solar}/t1`, [bikes, soil]]],
    { checked: 5, confirmed: 4, unchecked: 0 },
  ]);
  const stored = JSON.parse(readFileSync(join(ws.root, 'debates', 'crux-relations.json'), 'utf8'));
  expect([stored.relations.length, stored.usage.llmCalls, stored.usage.costUsd]).toEqual([5, 10, check.costUsd]);
});
