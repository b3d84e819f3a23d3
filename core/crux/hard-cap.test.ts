import { describe, expect, it } from 'vitest';
import type { CruxEvent } from './events';
import { replayScript } from './replay';
import type { ScriptObject } from './script-builder';
import {
  analysis,
  crystallize,
  debate,
  evidence,
  message as m,
  quickDiscovery,
  quickLock,
  script,
  thread,
} from './script-builder';

// The thread hard cap counts accepted agent messages over all stages and is checked last, after
// whatever stage transition the same message caused.

const done = crystallize('t1', analysis({ ana: { side: 'YES' }, ben: { side: 'NO' } }));

function outcome(events: CruxEvent[]): string[] {
  return events.flatMap((e) => {
    if (e.type === 'stage_transition') return [`->${e.to}`];
    if (e.type === 'crystallization_requested') return [`crystallize (${e.reason})`];
    if (e.type === 'thread_closed') return [e.status];
    return [];
  });
}

function run(cap: number, ...lines: (ScriptObject | ScriptObject[])[]) {
  return replayScript(script(debate(['ana', 'ben'], { threadHardCap: cap }), thread('t1'), ...lines));
}

describe('thread hard cap', () => {
  it('closes a DISCOVERY thread as FAILED_CAP', () => {
    const r = run(5, Array.from({ length: 6 }, () => m('t1', 'ana', 'CLAIM')));
    expect(outcome(r.events)).toEqual(['FAILED_CAP']);
    expect(r.result.threads[0]).toMatchObject({ status: 'FAILED_CAP', stages: { discovery: { messages: 5 } } });
    expect(r.result.systemMetrics.reasonsBlocked.threadClosed).toBe(1);
  });

  it('closes a CRUX_LOCK thread as FAILED_CAP', () => {
    const r = run(10, quickDiscovery('t1', 'ana', 'ben'), Array.from({ length: 4 }, () => m('t1', 'ana', 'CLARIFY')));
    expect(outcome(r.events)).toEqual(['->CRUX_LOCK', 'FAILED_CAP']);
    expect(r.result.threads[0]?.stages).toEqual({
      discovery: { messages: 6 },
      cruxLock: { messages: 4, lockAttempts: 0 },
      evidence: { messages: 0 },
    });
  });

  it('applies after the transition: an early exit that hits the cap still fails in CRUX_LOCK', () => {
    const r = run(6, quickDiscovery('t1', 'ana', 'ben'));
    expect(outcome(r.events)).toEqual(['->CRUX_LOCK', 'FAILED_CAP']);
  });

  it('crystallizes an EVIDENCE thread', () => {
    const r = run(15, quickDiscovery('t1', 'ana', 'ben'), quickLock('t1', 'ana', 'ben'), evidence('t1', 'ana', 'ben', 3), done);
    expect(outcome(r.events)).toEqual(['->CRUX_LOCK', '->EVIDENCE', 'crystallize (hardCap)', 'CONVERGED']);
    expect(r.result.threads[0]?.stages.evidence.messages).toBe(3);
  });

  it('crystallizes at once when the locking message reaches the cap', () => {
    const r = run(12, quickDiscovery('t1', 'ana', 'ben'), quickLock('t1', 'ana', 'ben'), done);
    expect(outcome(r.events)).toEqual(['->CRUX_LOCK', '->EVIDENCE', 'crystallize (hardCap)', 'CONVERGED']);
    expect(r.result.threads[0]).toMatchObject({ status: 'CONVERGED', stages: { evidence: { messages: 0 } } });
  });

  it('with the default cap and a bigger EVIDENCE budget, the cap crystallizes at 40', () => {
    const r = replayScript(
      script(
        debate(['ana', 'ben'], { budgets: { EVIDENCE: 50 }, evidenceStability: { minMessages: 50 } }),
        thread('t1'),
        quickDiscovery('t1', 'ana', 'ben'),
        quickLock('t1', 'ana', 'ben'),
        evidence('t1', 'ana', 'ben', 29),
        done,
      ),
    );
    expect(outcome(r.events)).toEqual(['->CRUX_LOCK', '->EVIDENCE', 'crystallize (hardCap)', 'CONVERGED']);
    expect(r.result.threads[0]?.stages.evidence.messages).toBe(28);
    expect(r.result.systemMetrics.reasonsBlocked.threadClosed).toBe(1);
  });
});
