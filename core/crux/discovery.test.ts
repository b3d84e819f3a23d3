import { describe, expect, it } from 'vitest';
import type { CruxEvent } from './events';
import { replayScript } from './replay';
import { debate, message as m, script, thread } from './script-builder';

// DISCOVERY exits: early on a late PROPOSE_CRUX, by budget with a question and two voices,
// through a BINARY_FRAMING extension, or into FAILED_DISCOVERY.

const Q = 'Does remote work raise output within 18 months?';

/** The stage-level story of a run, in order. */
function story(events: CruxEvent[]): string[] {
  return events.flatMap((e) => {
    if (e.type === 'stage_transition') return [`${e.from}->${e.to} (${e.reason})`];
    if (e.type === 'discovery_extended') return [`extended to ${e.budget}`];
    if (e.type === 'moderator_intervention') return [`${e.id} ${e.kind}`];
    if (e.type === 'thread_closed') return [`closed ${e.status}`];
    return [];
  });
}

function claims(agents: string[], count: number) {
  return Array.from({ length: count }, (_, i) => m('t1', agents[i % agents.length] ?? 'ana', 'CLAIM'));
}

describe('early DISCOVERY exit', () => {
  it('needs a PROPOSE_CRUX as the 6th stage message or later, from at least 2 agents', () => {
    const run = replayScript(
      script(
        debate(['ana', 'ben']),
        thread('t1'),
        claims(['ana', 'ben'], 4), // m1-m4
        m('t1', 'ana', 'PROPOSE_CRUX', { question: 'Too early?' }), // m5: only 5 messages
        m('t1', 'ben', 'CLAIM'), // m6: 6 messages but not a proposal
        m('t1', 'ben', 'PROPOSE_CRUX', { question: Q }), // m7: exit
      ),
    );
    expect(story(run.events)).toEqual(['DISCOVERY->CRUX_LOCK (earlyExit)']);
    expect(run.result.threads[0]).toMatchObject({
      status: 'CRUX_LOCK',
      binaryQuestion: Q,
      participants: ['ana', 'ben'],
      stages: { discovery: { messages: 7 }, cruxLock: { messages: 0, lockAttempts: 0 } },
    });
  });

  it('does not exit early on one voice; the budget then moves it on once a second agent has spoken', () => {
    const run = replayScript(
      script(
        debate(['ana', 'ben']),
        thread('t1'),
        claims(['ana'], 5), // m1-m5
        m('t1', 'ana', 'PROPOSE_CRUX', { question: Q }), // m6: 6 messages, one agent
        m('t1', 'ana', 'CLAIM'), // m7
        m('t1', 'ben', 'CLAIM'), // m8: budget of 8 runs out with a question and 2 authors
      ),
    );
    expect(story(run.events)).toEqual(['DISCOVERY->CRUX_LOCK (budget)']);
    expect(run.result.threads[0]?.stages.discovery.messages).toBe(8);
  });

  it('takes the threshold from the config', () => {
    const run = replayScript(
      script(
        debate(['ana', 'ben'], { earlyExitMinMessages: 2 }),
        thread('t1'),
        m('t1', 'ana', 'CLAIM'),
        m('t1', 'ben', 'PROPOSE_CRUX', { question: Q }),
      ),
    );
    expect(story(run.events)).toEqual(['DISCOVERY->CRUX_LOCK (earlyExit)']);
  });
});

describe('DISCOVERY budget', () => {
  it('extends once with BINARY_FRAMING when no question exists, then exits on a proposal', () => {
    const run = replayScript(
      script(
        debate(['ana', 'ben']),
        thread('t1'),
        claims(['ana', 'ben'], 8), // m1-m8: budget out, no question
        m('t1', 'ana', 'PROPOSE_CRUX', { question: Q }), // m9: 9 ≥ 6 messages → early exit
      ),
    );
    expect(story(run.events)).toEqual(['extended to 12', 'mod1 BINARY_FRAMING', 'DISCOVERY->CRUX_LOCK (earlyExit)']);
    expect(run.state.threads[0]?.budgets.DISCOVERY).toBe(12);
  });

  it('closes as FAILED_DISCOVERY when the extension also runs out without a question', () => {
    const run = replayScript(
      script(debate(['ana', 'ben']), thread('t1'), claims(['ana', 'ben'], 12), m('t1', 'ana', 'CLAIM')),
    );
    expect(story(run.events)).toEqual(['extended to 12', 'mod1 BINARY_FRAMING', 'closed FAILED_DISCOVERY']);
    expect(run.result.threads[0]).toMatchObject({
      status: 'FAILED_DISCOVERY',
      binaryQuestion: null,
      stages: { discovery: { messages: 12 } },
      crux: null,
    });
    expect(run.result.systemMetrics).toMatchObject({
      messagesTotal: 12,
      messagesBlocked: 1,
      reasonsBlocked: { threadClosed: 1 },
      moderatorInterventions: { BINARY_FRAMING: 1 },
    });
    expect(run.result.regime).toBe('inconclusive');
  });

  it('uses the extension when the second voice is missing, even with a question', () => {
    const run = replayScript(
      script(
        debate(['ana', 'ben']),
        thread('t1'),
        m('t1', 'ana', 'PROPOSE_CRUX', { question: Q }), // m1
        claims(['ana'], 7), // m2-m8: budget out, one author
        m('t1', 'ben', 'CLAIM'), // m9
        claims(['ana'], 3), // m10-m12: extended budget out, two authors now
      ),
    );
    expect(story(run.events)).toEqual(['extended to 12', 'mod1 BINARY_FRAMING', 'DISCOVERY->CRUX_LOCK (budget)']);
  });

  it('fails at once without extensions and honours a configured extension size', () => {
    const none = replayScript(
      script(debate(['ana', 'ben'], { discoveryExtensions: 0 }), thread('t1'), claims(['ana', 'ben'], 8)),
    );
    expect(story(none.events)).toEqual(['closed FAILED_DISCOVERY']);

    const two = replayScript(
      script(
        debate(['ana', 'ben'], { budgets: { DISCOVERY: 3 }, discoveryExtensions: 2, discoveryExtensionBudget: 2 }),
        thread('t1'),
        claims(['ana', 'ben'], 7),
      ),
    );
    expect(story(two.events)).toEqual([
      'extended to 5',
      'mod1 BINARY_FRAMING',
      'extended to 7',
      'mod2 BINARY_FRAMING',
      'closed FAILED_DISCOVERY',
    ]);
  });

  it('lets the latest DISCOVERY proposal be the binary question', () => {
    const run = replayScript(
      script(
        debate(['ana', 'ben']),
        thread('t1'),
        m('t1', 'ana', 'PROPOSE_CRUX', { question: 'First version?' }),
        m('t1', 'ben', 'PROPOSE_CRUX', { question: '  Second version?  ' }),
      ),
    );
    expect(run.result.threads[0]?.binaryQuestion).toBe('Second version?');
  });
});
