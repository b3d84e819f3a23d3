import { describe, expect, it } from 'vitest';
import { replayScript, runReplay } from './replay';
import { round } from './result';
import type { PositionSpec, ScriptObject } from './script-builder';
import {
  FAST_CONFIG,
  analysis,
  debate,
  message as m,
  quickCrux,
  quickDiscovery,
  script,
  thread,
} from './script-builder';

const split: Record<string, PositionSpec> = { ana: { side: 'YES' }, ben: { side: 'NO' } };
const agreed: Record<string, PositionSpec> = { ana: { side: 'YES' }, ben: { side: 'YES' }, cal: { side: 'UNCERTAIN' } };
const unsure: Record<string, PositionSpec> = { ana: { side: 'UNCERTAIN' }, ben: { side: 'UNCERTAIN' } };

function debateOf(...threads: [string, Record<string, PositionSpec>, ScriptObject?][]) {
  return script(
    debate(['ana', 'ben', 'cal'], FAST_CONFIG),
    threads.flatMap(([id, specs, extra]) => quickCrux(id, 'ana', 'ben', analysis(specs, extra ?? {}))),
  );
}

describe('regime', () => {
  it('is polarized with an irreducible crux, even beside a crux of full agreement', () => {
    const r = runReplay(debateOf(['t1', agreed], ['t2', split]));
    expect([r.regime, r.primaryCrux, r.irreducibleCruxes]).toEqual(['polarized', 't2', ['t2']]);
  });

  it('is consensus with a crux of full agreement and nothing irreducible', () => {
    const r = runReplay(debateOf(['t1', agreed, { question: 'Is the pilot data sound?' }]));
    const failures = r.threads[0]?.crux?.validationFailures;
    expect({ regime: r.regime, primary: r.primaryCrux, cg: r.commonGround, failures }).toEqual({
      regime: 'consensus',
      primary: null,
      cg: [{ statement: 'Is the pilot data sound?', type: 'crux' }],
      failures: ['NO_SPLIT'],
    });
  });

  it('is inconclusive with only unvalidated splits or all-UNCERTAIN cruxes', () => {
    const r = runReplay(debateOf(['t1', split, { resolutionCriteria: ['one'] }], ['t2', unsure]));
    expect({ regime: r.regime, cg: r.commonGround }).toEqual({ regime: 'inconclusive', cg: [] });
    expect(runReplay(script(debate(['ana', 'ben']))).regime).toBe('inconclusive');
  });

  it('is partial while any thread is open, whatever else holds', () => {
    const r = runReplay(
      script(debate(['ana', 'ben', 'cal'], FAST_CONFIG), quickCrux('t1', 'ana', 'ben', analysis(split)), thread('t2')),
    );
    expect([r.regime, r.irreducibleCruxes]).toEqual(['partial', ['t1']]);
  });
});

describe('common ground', () => {
  it('lists analysis items first, then cruxes of full agreement, each in crystallization order', () => {
    const r = runReplay(
      debateOf(
        ['t1', agreed, { question: 'First?', commonGround: [{ statement: 'Pilots self-select', type: 'empirical' }] }],
        ['t2', split, { commonGround: [{ statement: 'Output matters', type: 'value' }] }],
        ['t3', { ana: { side: 'NO' }, ben: { side: 'NO' } }, { question: 'Third?' }],
      ),
    );
    expect(r.commonGround).toEqual([
      { statement: 'Pilots self-select', type: 'empirical' },
      { statement: 'Output matters', type: 'value' },
      { statement: 'First?', type: 'crux' },
      { statement: 'Third?', type: 'crux' },
    ]);
  });
});

describe('system metrics', () => {
  it('counts graded attempts, replaced ones included, for the steelman accuracy rate', () => {
    const grade = (from: string, to: string, g: string) => [
      m('t1', from, 'STEELMAN', { steelmanTarget: to }),
      m('t1', to, 'GRADE_STEELMAN', { steelmanGrade: g }),
    ];
    const run = replayScript(
      script(
        debate(['ana', 'ben'], { budgets: { CRUX_LOCK: 40 }, threadHardCap: 100 }),
        thread('t1'),
        quickDiscovery('t1', 'ana', 'ben'),
        grade('ana', 'ben', 'WRONG'),
        grade('ana', 'ben', 'INCOMPLETE'),
        grade('ben', 'ana', 'WRONG'),
        grade('ben', 'ana', 'WRONG'),
        grade('ana', 'ben', 'ACCURATE'),
        grade('ben', 'ana', 'INCOMPLETE'),
        grade('ben', 'ana', 'WRONG'),
        m('t1', 'ana', 'STEELMAN', { steelmanTarget: 'ben' }), // ungraded: not in the rate
      ),
    );
    expect(run.result.systemMetrics).toMatchObject({
      steelmanAttempts: 8,
      steelmanRetries: 6,
      steelmanAccuracyRate: 0.1429,
    });
    expect(runReplay(script(debate(['ana', 'ben']))).systemMetrics.steelmanAccuracyRate).toBe(0);
  });

  it('reports the whole metrics block, model usage at zero in replay', () => {
    const r = runReplay(debateOf(['t1', split]));
    expect(r.systemMetrics).toEqual({
      messagesTotal: 9,
      messagesBlocked: 0,
      reasonsBlocked: {
        threadClosed: 0,
        stageRestriction: 0,
        replyLimit: 0,
        invalidMove: 0,
        steelmanRequired: 0,
        vagueFalsifier: 0,
      },
      moderatorInterventions: {
        BINARY_FRAMING: 0,
        HORIZON_ALIGNMENT: 0,
        COMMIT_REQUEST: 0,
        STEELMAN_REQUEST: 0,
        FALSIFIER_REQUEST: 0,
      },
      cruxLockAttempts: 1,
      cruxLockSuccesses: 1,
      cruxLockFailures: 0,
      steelmanAttempts: 2,
      steelmanRetries: 0,
      steelmanAccuracyRate: 1,
      cheapConcessions: 0,
      horizonMismatches: 0,
      dcgPromotions: 1,
      threadsSpawned: 0,
      threadSpawnRejections: { maxThreads: 0, supporters: 0, noQuestion: 0, notOrthogonal: 0 },
      llmCalls: 0,
      inputTokens: 0,
      outputTokens: 0,
      cacheReadTokens: 0,
      costUsd: 0,
    });
  });
});

describe('round', () => {
  it('rounds half up without binary-fraction surprises', () => {
    expect([round(2 / 3, 4), round(1.005, 2), round(0.285, 2), round(0.7, 2), round(1 / 7, 4)]).toEqual([
      0.6667, 1.01, 0.29, 0.7, 0.1429,
    ]);
  });
});
