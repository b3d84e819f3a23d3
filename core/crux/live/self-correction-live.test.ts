import { describe, expect, it } from 'vitest';
import type { LlmRequest } from '../../ports/llm';
import { replayScript } from '../replay';
import { buildResult } from '../result';
import { FAST_CONFIG, analysis, debate, quickCrux, script } from '../script-builder';
import type { CruxAsk, CruxRunState } from './protocol';
import { cruxProtocol } from './protocol';
import { cruxCheckAnswerSchema, type ReviewBrief } from './review-request';
import { simulateReview } from '../simulator';

// Self-correction in a live debate: once t1 crystallizes (ana YES, ben and cid NO), the smaller camp's
// first agent, ana, is asked whether the crux stands. Her challenge goes to the crystallizer, whose
// review re-extracts it from the commitments (ana YES, ben NO: cid never committed); the new version
// goes to the first of the smaller camp again, a tie now, so NO's first, ben, who lets it stand.

const prompt = { systemPrompt: 'You debate.', tier: 'standard' as const, interests: [] };
const agents = ['ana', 'ben', 'cid'];
const protocol = cruxProtocol({
  subject: undefined,
  topic: 'Test topic',
  agents: agents.map((id) => ({ id })),
  limits: { maxMessages: 200, stagnationTurns: 12 },
  personas: new Map(agents.map((id) => [id, prompt])),
  crystallizer: prompt,
  now: () => Date.UTC(2026, 0, 1),
});
const view = { degraded: new Set<string>(), pending: [] };

function crystallized(): CruxRunState {
  const output = analysis({ ana: { side: 'YES' }, ben: { side: 'NO' }, cid: { side: 'NO' } });
  const { state } = replayScript(script(debate(agents, FAST_CONFIG), quickCrux('t1', 'ana', 'ben', output)));
  return { crux: state, spawnOffered: new Set() };
}

describe('self-correction in a live debate', () => {
  it('offers CHALLENGE_CRUX on a crystallized crux, reviews a challenge, and checks the new version once', () => {
    const run = crystallized();
    const asked: CruxAsk[] = [];
    const answers: Record<string, unknown> = {
      'crux_check:0': { challenge: true, reason: 'NOT_BINARY', content: 'It asks how much, not whether.' },
      'crux_check:1': { challenge: false, content: 'Now it is a yes/no question.' },
    };
    while (!protocol.done(run)) {
      const [ask] = protocol.asks(run, view).asks as [CruxAsk];
      asked.push(ask);
      const request = protocol.request(run, ask) as LlmRequest<unknown>;
      const version = run.crux.threads[0]?.crux?.history?.length ?? 0;
      const value =
        ask.kind === 'review' ? simulateReview(1, request.brief as ReviewBrief) : answers[`${ask.kind}:${version}`];
      // What the agent is offered: the challenge and its three reasons, in the answer schema.
      if (ask.kind === 'crux_check') expect(request.schema).toBe(cruxCheckAnswerSchema);
      protocol.step(run, protocol.answer(run, ask, value));
    }
    const crux = buildResult(run.crux).threads[0]?.crux;
    expect({
      asked,
      history: crux?.history?.map((h) => [h.challenge.agent, h.challenge.reason, h.outcome, h.before.question]),
      question: crux?.question,
      challenge: run.crux.transcript.filter((e) => e.move === 'CHALLENGE_CRUX').map((e) => [e.id, e.accepted]),
    }).toEqual({
      asked: [
        { kind: 'crux_check', thread: 't1', agent: 'ana' },
        { kind: 'review', thread: 't1' },
        { kind: 'crux_check', thread: 't1', agent: 'ben' },
      ],
      history: [['ana', 'NOT_BINARY', 'REEXTRACTED', 'Does the policy raise output within 18 months?']],
      question: 'Does the policy raise output within 18 months, as the resolution criteria measure it?',
      challenge: [['m10', true]],
    });
  });

  it('names its calls so a resumed debate finishes them, and gives up on a check that keeps failing', () => {
    const run = crystallized();
    const check: CruxAsk = { kind: 'crux_check', thread: 't1', agent: 'ana' };
    const info = protocol.describe(check);
    expect([info.planned, info.degradable]).toEqual([{ kind: 'crux_check', thread: 't1', agent: 'ana' }, false]);
    expect(protocol.failureOf?.('ana', info.failedAt)?.planned).toEqual(info.planned);
    expect(protocol.asks(run, { ...view, pending: [info.planned] })).toEqual({ asks: [check], resumed: true });
    const failed = protocol.failed(run, check, { reason: 'x', message: 'timeout', attempts: 3, refused: false, fromModel: true });
    expect(failed).toEqual([{ kind: 'crux_check', thread: 't1', agent: 'ana', outcome: 'GAVE_UP' }]);
    for (const input of failed) protocol.step(run, input);
    expect(protocol.done(run)).toBe(true);
  });
});
