import { describe, expect, it } from 'vitest';
import { replayScript } from './replay';
import { commit, debate, message, script, thread } from './script-builder';

// Staleness and what brings a stale thread back, beside the replay example crux-stale (which shows
// a revival by a reply): a proposed crux asking the stale thread's question, with and without room.

const ROOFS = 'Will three school roofs be leased to the co-op by 2027?';
const PAYBACK = 'Will the panels pay back within 8 years?';

function run(config: Record<string, unknown>, ...extra: object[]) {
  return replayScript(
    script(
      debate(['ana', 'ben', 'cy'], { earlyExitMinMessages: 2, staleAfter: 3, ...config }),
      thread('t1'),
      thread('t2'),
      message('t2', 'ana', 'CLAIM'), // m1
      message('t2', 'ben', 'PROPOSE_CRUX', { question: ROOFS }), // m2 → t2 in CRUX_LOCK
      message('t1', 'ana', 'CLAIM'), // m3
      message('t1', 'cy', 'PROPOSE_CRUX', { question: PAYBACK }), // m4 → t1 in CRUX_LOCK
      commit('t1', 'ana', 'YES'), // m5: t2 idle since m2 for 3 turns → STALE
      thread('t3'),
      message('t3', 'cy', 'CLAIM'), // m6
      ...(extra as never[]),
    ),
  );
}
const statuses = (r: ReturnType<typeof run>) => r.result.threads.map((t) => [t.id, t.status, t.mergedInto ?? null]);

describe('a stale thread', () => {
  it('comes back when a discovery thread proposes its question, and the two are merged at once', () => {
    // m7 proposes t2's question in t3: t2 comes back to CRUX_LOCK, and t3 (only just in CRUX_LOCK,
    // the younger) is merged into it. Room is not needed: the count of active threads does not grow.
    const r = run({ maxActiveThreads: 2 }, message('t3', 'ben', 'PROPOSE_CRUX', { question: ROOFS }));
    expect({
      statuses: statuses(r),
      events: r.events.flatMap((e) => (e.type === 'thread_revived' || e.type === 'threads_merged' ? [e.type] : [])),
    }).toEqual({
      statuses: [
        ['t1', 'CRUX_LOCK', null],
        ['t2', 'CRUX_LOCK', null],
        ['t3', 'MERGED', 't2'],
      ],
      events: ['thread_revived', 'threads_merged'],
    });
  });

  it('stays stale when a reply addresses it with no room for it, and never goes stale with staleAfter 0', () => {
    // A reply into t2 from t3 while t1 and t3 fill the two places: no room, t2 stays stale.
    const full = run({ maxActiveThreads: 2 }, message('t3', 'ben', 'CLAIM', {}, { replyTo: 'm1' }));
    const off = run({ staleAfter: 0 });
    expect([statuses(full), statuses(off)]).toEqual([
      [
        ['t1', 'CRUX_LOCK', null],
        ['t2', 'STALE', null],
        ['t3', 'DISCOVERY', null],
      ],
      [
        ['t1', 'CRUX_LOCK', null],
        ['t2', 'CRUX_LOCK', null],
        ['t3', 'DISCOVERY', null],
      ],
    ]);
  });
});
