import { describe, expect, it } from 'vitest';
import { replayScript } from './replay';
import { debate, message as m, propose, script, thread } from './script-builder';

// Spawning: gates in the order maxThreads, supporters, noQuestion, notOrthogonal.

describe('thread spawning', () => {
  it('spawns orthogonal, supported proposals and rejects the rest with their reason', () => {
    const run = replayScript(
      script(
        debate(['ana', 'ben', 'cal']),
        thread('t1', 'Remote work and productivity'),
        propose('t2', 'ana', ['ana', 'ben'], 'Will carbon taxes cut emissions by 2030?'), // spawned
        propose('t3', 'ana', ['ana', 'ana'], 'Do tariffs raise consumer prices?'), // 1 distinct supporter
        propose('t3', 'ana', ['ben'], 'Do tariffs raise consumer prices?'), // the proposer is not implied
        propose('t4', 'cal', ['cal', 'ben'], null), // no question
        propose('t4', 'cal', ['cal', 'ben'], '   '), // blank question
        propose('t5', 'ben', ['ben', 'cal'], 'Do carbon taxes cut emissions?'), // same keywords as t2
        propose('t5', 'ben', ['ben', 'cal'], 'Does remote work raise productivity?'), // vs t1's topic: 3/4
        // Jaccard exactly 0.5 with t2 (3 shared of 6) is still orthogonal enough.
        propose('t6', 'cal', ['ana', 'cal'], 'Carbon taxes, emissions: housing prices or rents?'),
        propose('t7', 'ben', ['ben', 'cal'], 'Is nuclear power safer than coal?'), // 4th active thread
        propose('t8', 'ben', ['ben'], null), // maxThreads is checked first
        thread('t9', 'A declared thread passes no gate'), // 5th active thread
      ),
    );
    const rejected = run.events.flatMap((e) => (e.type === 'thread_spawn_rejected' ? [`${e.thread} ${e.reason}`] : []));
    expect(rejected).toEqual([
      't3 supporters',
      't3 supporters',
      't4 noQuestion',
      't4 noQuestion',
      't5 notOrthogonal',
      't5 notOrthogonal',
      't8 maxThreads',
    ]);
    expect(run.result.threads.map((t) => [t.id, t.status, t.binaryQuestion])).toEqual([
      ['t1', 'DISCOVERY', null],
      ['t2', 'DISCOVERY', 'Will carbon taxes cut emissions by 2030?'],
      ['t6', 'DISCOVERY', 'Carbon taxes, emissions: housing prices or rents?'],
      ['t7', 'DISCOVERY', 'Is nuclear power safer than coal?'],
      ['t9', 'DISCOVERY', null],
    ]);
    expect(run.result.systemMetrics).toMatchObject({
      threadsSpawned: 3,
      threadSpawnRejections: { maxThreads: 1, supporters: 2, noQuestion: 2, notOrthogonal: 2 },
    });
    expect(run.result.regime).toBe('partial');
  });

  it('counts only open threads as active and honours maxActiveThreads', () => {
    const run = replayScript(
      script(
        debate(['ana', 'ben'], { maxActiveThreads: 1, budgets: { DISCOVERY: 2 }, discoveryExtensions: 0 }),
        thread('t1'),
        propose('t2', 'ana', ['ana', 'ben'], 'Is the sky blue?'), // t1 is active
        m('t1', 'ana', 'CLAIM'),
        m('t1', 'ben', 'CLAIM'), // t1 fails discovery
        propose('t2', 'ana', ['ana', 'ben'], 'Is the sky blue?'), // now it fits
      ),
    );
    expect(run.result.threads.map((t) => `${t.id} ${t.status}`)).toEqual(['t1 FAILED_DISCOVERY', 't2 DISCOVERY']);
    expect(run.result.systemMetrics).toMatchObject({ threadsSpawned: 1, threadSpawnRejections: { maxThreads: 1 } });
  });

  it('starts a spawned thread with its question, so a DISCOVERY budget can move it on without a proposal', () => {
    const run = replayScript(
      script(
        debate(['ana', 'ben'], { budgets: { DISCOVERY: 2 } }),
        propose('t1', 'ana', ['ana', 'ben'], 'Is the sky blue?', 'Sky colour'),
        m('t1', 'ana', 'CLAIM'),
        m('t1', 'ben', 'CLAIM'),
      ),
    );
    expect(run.result.threads[0]).toMatchObject({
      id: 't1',
      topic: 'Sky colour',
      status: 'CRUX_LOCK',
      binaryQuestion: 'Is the sky blue?',
    });
    expect(run.state.threads[0]).toMatchObject({ origin: 'spawn', proposedBy: 'ana', supporters: ['ana', 'ben'] });
  });

  it('compares with a thread question once it has one, not its topic', () => {
    const run = replayScript(
      script(
        debate(['ana', 'ben']),
        thread('t1', 'Remote work productivity'),
        m('t1', 'ana', 'PROPOSE_CRUX', { question: 'Do office mandates cut attrition?' }),
        propose('t2', 'ana', ['ana', 'ben'], 'Remote work productivity?'), // equals t1's topic only
        propose('t3', 'ana', ['ana', 'ben'], 'Do office mandates cut attrition in startups?'),
      ),
    );
    expect(run.result.threads.map((t) => t.id)).toEqual(['t1', 't2']);
    expect(run.result.systemMetrics.threadSpawnRejections.notOrthogonal).toBe(1);
  });
});
