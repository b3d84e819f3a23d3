import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { replayScript } from '../../core/crux';
import { attentionOf } from '../../core/crux/attention';
import { agentTurnRequest } from '../../core/crux/live/brief';
import { nextTurns } from '../../core/crux/live/scheduler';
import { mismatches } from './expected-match';

// Replay scripts of the coordination mechanics (issue 19, item 4): the agenda manager's picks, the
// attention filter, two threads on one crux merged, and a thread gone stale. What each script must
// show is computed by hand in docs/crux-protocol.md ("Agenda, attention, merging and staleness").

const DIR = join(import.meta.dirname, 'scripts');
const text = (name: string) => readFileSync(join(DIR, `${name}.jsonl`), 'utf8');
const replay = (name: string, lines?: number) =>
  replayScript(lines === undefined ? text(name) : text(name).split('\n').slice(0, lines).join('\n'));
const expected = (name: string): unknown => JSON.parse(readFileSync(join(DIR, `${name}.expected.json`), 'utf8'));
/** The thread-manager decisions among a run's events: merges, threads closed, threads revived. */
const decisions = (run: ReturnType<typeof replay>) =>
  run.events.flatMap((e) =>
    e.type === 'threads_merged' || e.type === 'thread_closed' || e.type === 'thread_revived' ? [e] : [],
  );

describe('crux-agenda: the agenda manager', () => {
  it('records each pick, and moves a thread without a question to the most relevant open question', () => {
    const run = replay('crux-agenda');
    const picks = run.events.flatMap((e) =>
      e.type === 'agenda_set'
        ? [[e.thread, e.item.source, e.item.from, e.item.messageId, e.item.relevance, e.item.question]]
        : [],
    );
    const LOANS = 'Will member loans cover 30% of the installation cost by 2027?';
    expect({ picks, final: run.state.agenda.t2?.question }).toEqual({
      picks: [
        ['t1', 'thread', 't1', null, 0, "Will the co-op's panels pay back within 8 years?"],
        ['t2', 'topic', null, null, 0, 'Financing the installation'],
        // m10: cy's deeper crux, the only open question; ana YES and ben NO hold a side in t1.
        ['t2', 'deeper', 't1', 'm10', 2, 'Will three school roofs be leased to the co-op by 2027?'],
        // m11: ben's is as relevant and shares "installation" with t2's topic: it takes the place.
        ['t2', 'deeper', 't1', 'm11', 2, LOANS],
        // m13: ana proposes it in t2, which now works on its own question.
        ['t2', 'thread', 't2', null, 0, LOANS],
      ],
      final: LOANS,
    });
  });
});

describe('crux-attention: what each agent reads', () => {
  const run = replay('crux-attention');
  const read = (agent: string) => attentionOf(run.state, 't1', agent).map((a) => [a.entry.id, a.score, a.why]);

  it('scores every message for every agent as of when it was posted, against the threshold of 0.6', () => {
    expect({ ana: read('ana'), ben: read('ben'), cy: read('cy'), dan: read('dan') }).toEqual({
      // m2 names none of ana's interests: 0.3 (she had posted) + 0.2·0.7 (a claim) = 0.44, passed over.
      ana: [
        ['m1', 1, 'own'],
        ['m2', 0.44, 'below'],
        ['m3', 1, 'addressed'],
        ['m4', 0.88, 'relevant'],
        ['m5', 1, 'own'],
        ['m6', 0.75, 'relevant'],
        ['m7', 1, 'own'],
        ['m8', 1, 'own'],
      ],
      // After his commitment (m6) ben reads everything of the crux he committed on.
      ben: [
        ['m1', 0.14, 'below'],
        ['m2', 1, 'own'],
        ['m3', 0.5, 'below'],
        ['m4', 1, 'own'],
        ['m5', 1, 'proposal'],
        ['m6', 1, 'own'],
        ['m7', 1, 'committed'],
        ['m8', 1, 'committed'],
      ],
      // Nothing here is about tariffs or exports; m5 proposes the crux, put to everyone; m8 is a
      // steelman of cy, addressed to it.
      cy: [
        ['m1', 0.14, 'below'],
        ['m2', 0.14, 'below'],
        ['m3', 1, 'own'],
        ['m4', 0.38, 'below'],
        ['m5', 1, 'proposal'],
        ['m6', 0.5, 'below'],
        ['m7', 0.38, 'below'],
        ['m8', 1, 'addressed'],
      ],
      // No interests, nothing to filter by.
      dan: ['m1', 'm2', 'm3', 'm4', 'm5', 'm6', 'm7', 'm8'].map((id) => [
        id,
        1,
        id === 'm5' ? 'proposal' : 'unfiltered',
      ]),
    });
  });

  it("leaves what an agent's attention passes over out of its turn, and says how much", () => {
    const request = agentTurnRequest(
      run.state,
      run.state.threads[0] as never,
      { thread: 't1', agent: 'cy', ask: { kind: 'COMMIT_POSITION' }, attempt: 0 },
      { systemPrompt: 'You are Cy.', tier: 'fast' },
      { subject: { kind: 'topic', text: 'A rooftop solar co-op' }, today: '2026-03-01' },
    );
    const ids = request.messages.flatMap((m) => m.content.match(/^\[(m\d+)\]/)?.[1] ?? []);
    const last = request.messages[request.messages.length - 1]?.content ?? '';
    expect({
      ids,
      unseen: last.match(/\d+ messages of this thread outside your interests are not shown/)?.[0],
    }).toEqual({
      ids: ['m3', 'm5', 'm8'],
      unseen: '5 messages of this thread outside your interests are not shown',
    });
  });
});

describe('crux-merge: two threads working on the same crux', () => {
  it('merges the less advanced into the other, keeps its history, and refuses it further messages', () => {
    const run = replay('crux-merge');
    expect({
      result: mismatches(run.result, expected('crux-merge')),
      decisions: decisions(run),
      // The merged thread's messages stay in the transcript, m11 refused there.
      kept: run.state.transcript.filter((m) => m.thread === 't1').map((m) => [m.id, m.accepted]),
      absorbed: run.state.threads.find((t) => t.id === 't2')?.absorbed,
    }).toEqual({
      result: [],
      decisions: [
        // m10 gives t1 the question t2 has been locked on (the same keywords: similarity 1); t2 is in
        // EVIDENCE, t1 only in CRUX_LOCK, so t1 is the absorbed side although it is the older thread.
        {
          type: 'thread_closed',
          thread: 't1',
          status: 'MERGED',
          reason: 'working on the same crux as t2 (keyword similarity 1)',
        },
        { type: 'threads_merged', thread: 't1', into: 't2', similarity: 1, messageId: 'm10' },
      ],
      kept: [
        ['m9', true],
        ['m10', true],
        ['m11', false],
      ],
      absorbed: ['t1'],
    });
  });
});

describe('crux-stale: a thread idle for staleAfter turns', () => {
  it('goes stale after 4 turns without a message, leaves the schedule, and comes back when addressed', () => {
    const run = replay('crux-stale');
    // After m6 (the script's first 9 lines): t2 has been idle since m2.
    const idle = replay('crux-stale', 9).state;
    const scheduled = (state: typeof idle) =>
      nextTurns(state, { degraded: new Set(), interests: new Map() }).map((t) => t.thread);
    expect({
      result: mismatches(run.result, expected('crux-stale')),
      decisions: decisions(run),
      scheduled: [scheduled(idle), scheduled(run.state)],
    }).toEqual({
      result: [],
      decisions: [
        { type: 'thread_closed', thread: 't2', status: 'STALE', reason: 'no message in the last 4 turns' },
        // m7, ben's commitment in t2, is refused (threadClosed) but is a turn all the same; m9 in t1
        // replies to m1, a message of t2: it addresses t2 again, and there is room for it.
        {
          type: 'thread_revived',
          thread: 't2',
          status: 'CRUX_LOCK',
          by: 'cy',
          messageId: 'm9',
          reason: 'm9 replies to m1',
        },
      ],
      scheduled: [['t1'], ['t1', 't2']],
    });
  });
});
