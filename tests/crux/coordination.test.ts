import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { replayScript } from '../../core/crux';

// Replay scripts of the coordination mechanics (issue 19, item 4): the agenda manager's picks, the
// attention filter, two threads on one crux merged, and a thread gone stale. What each script must
// show is computed by hand in docs/crux-protocol.md ("Agenda, attention, merging and staleness").

const DIR = join(import.meta.dirname, 'scripts');
const replay = (name: string) => replayScript(readFileSync(join(DIR, `${name}.jsonl`), 'utf8'));

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
