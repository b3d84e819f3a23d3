import { describe, expect, it } from 'vitest';
import type { LlmRequest } from '../../ports/llm';
import { replayScript } from '../replay';
import { buildResult } from '../result';
import { FAST_CONFIG, analysis, debate, message as m, quickCrux, script, thread } from '../script-builder';
import { simulateLabels, simulateMove, simulateRelation } from '../simulator';
import type { TurnBrief } from './brief';
import type { LabelsBrief } from './labels-request';
import type { CruxAsk, CruxRunState } from './protocol';
import { cruxProtocol } from './protocol';
import type { RelationBrief } from './relation-request';

// Keeping a live debate honest: the devil's advocate is asked first once it joins and frames a crux;
// the debate-wide stop rules end a live debate as they end a replay; a debate that ends with
// coalitions asks the crystallizer once to name them (the schema that was unused until now).

const prompt = { systemPrompt: 'You debate.', tier: 'standard' as const, interests: [] };
const setup = (agents: string[]) =>
  cruxProtocol({
    subject: undefined,
    topic: 'Solar roofs for the co-op',
    agents: agents.map((id) => ({ id })),
    limits: { maxMessages: 200, stagnationTurns: 12 },
    personas: new Map(agents.map((id) => [id, prompt])),
    crystallizer: prompt,
    now: () => Date.UTC(2026, 0, 1),
  });
const view = { degraded: new Set<string>(), pending: [] };
const asRun = (lines: string): CruxRunState => ({ crux: replayScript(lines).state, spawnOffered: new Set() });

describe("a live debate's devil's advocate", () => {
  it('is asked for a crux as soon as it joins, plays the system prompt of its own, and frames one the debate accepts', () => {
    const protocol = setup(['ana', 'ben']);
    const claims = Array.from({ length: 20 }, (_, i) => m('t1', i % 2 === 0 ? 'ana' : 'ben', 'CLAIM'));
    const run = asRun(script(debate(['ana', 'ben'], { budgets: { DISCOVERY: 30 } }), thread('t1'), claims));
    const [ask] = protocol.asks(run, view).asks as [CruxAsk];
    expect(ask).toEqual({ kind: 'turn', turn: { thread: 't1', agent: 'devils-advocate', ask: { kind: 'PROPOSE_CRUX' }, attempt: 0 } });
    const request = protocol.request(run, ask) as LlmRequest<unknown>;
    expect(request.system).toContain("You are the devil's advocate of this debate.");
    // The simulator sometimes forgets the "?": the re-ask goes back to the devil's advocate.
    let move = simulateMove(1, request.brief as TurnBrief);
    protocol.step(run, protocol.answer(run, ask, move));
    for (let attempt = 1; run.crux.threads[0]?.status === 'DISCOVERY' && attempt <= 2; attempt++) {
      const [again] = protocol.asks(run, view).asks as [CruxAsk];
      expect(again.kind === 'turn' && [again.turn.agent, again.turn.attempt]).toEqual(['devils-advocate', attempt]);
      move = simulateMove(1, (protocol.request(run, again) as LlmRequest<unknown>).brief as TurnBrief);
      protocol.step(run, protocol.answer(run, again, move));
    }
    expect([run.crux.threads[0]?.status, run.crux.threads[0]?.binaryQuestion]).toEqual([
      'CRUX_LOCK',
      move.meta.question,
    ]);
    // In the lock it is asked nothing: its turns belong to discovery.
    const turns = protocol.asks(run, view).asks.filter((a): a is Extract<CruxAsk, { kind: 'turn' }> => a.kind === 'turn');
    expect(turns.map((a) => a.turn.agent)).not.toContain('devils-advocate');
  });
});

describe("a live debate's stop rules", () => {
  it('stop it with the rule that holds, which the runner turns into a partial end', () => {
    const protocol = setup(['ana', 'ben']);
    const claims = Array.from({ length: 10 }, (_, i) => m('t1', i % 2 === 0 ? 'ana' : 'ben', 'CLAIM'));
    const config = { budgets: { DISCOVERY: 30 }, stopRules: { noNewCrux: 12 } };
    // The replay driver would stop at 12; ten messages in, no rule holds yet.
    const run = asRun(script(debate(['ana', 'ben'], config), thread('t1'), claims));
    expect(protocol.stopRule?.(run)).toBeNull();
    for (const agent of ['ana', 'ben']) protocol.step(run, { kind: 'message', thread: 't1', agent, move: 'CLAIM', content: '' });
    const reason = protocol.stopRule?.(run);
    expect(reason).toBe('no new crux in the last 12 messages');
    const stop = protocol.stop(run, { kind: 'rule', text: reason as string });
    for (const input of stop.inputs) protocol.step(run, input);
    expect([stop.after, buildResult(run.crux).confidence]).toEqual(['partial', 'LOW']);
  });
});

describe("a live debate's coalition labels", () => {
  it('are asked once, after the relations, and name the coalitions by what they hold', () => {
    const agents = ['ana', 'ben', 'cid'];
    const protocol = setup(agents);
    const yesYesNo = (question: string) =>
      analysis({ ana: { side: 'YES' }, ben: { side: 'YES' }, cid: { side: 'NO' } }, { question });
    const run = asRun(
      script(
        debate(agents, FAST_CONFIG),
        quickCrux('t1', 'ana', 'cid', yesYesNo('Will solar roofs pay back within 8 years?')),
        quickCrux('t2', 'ana', 'cid', yesYesNo('Do members keep their shares after a decade?')),
      ),
    );
    const asked: CruxAsk[] = [];
    while (!protocol.done(run)) {
      for (const ask of protocol.asks(run, view).asks) {
        asked.push(ask);
        const brief = (protocol.request(run, ask) as LlmRequest<unknown>).brief;
        const value =
          ask.kind === 'labels'
            ? simulateLabels(1, brief as LabelsBrief)
            : ask.kind === 'crux_check'
              ? { challenge: false, content: 'It stands.' }
              : simulateRelation(1, brief as RelationBrief);
        protocol.step(run, protocol.answer(run, ask, value));
      }
    }
    expect({
      // Each crux put to an agent first (both let it stand), then the pair, then the labels.
      asked: asked.map((a) => a.kind),
      coalitions: buildResult(run.crux).coalitions,
    }).toEqual({
      asked: ['crux_check', 'crux_check', 'relation', 'labels'],
      coalitions: [{ members: ['ana', 'ben'], positions: { t1: 'YES', t2: 'YES' }, label: '[simulated] Test backers' }],
    });
  });
});
