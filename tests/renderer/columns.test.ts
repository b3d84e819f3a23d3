import { describe, expect, it } from 'vitest';
import type { CruxEventView } from '../../core/contract';
import { columnsFrom } from '../../renderer/src/views/debate/columns';

// The debate view's notes name a thread by its question, and a stage or a closing in plain words
// with the protocol's code kept for the tooltip.

const QUESTION = 'Will the community-owned solar co-op meet its stated target for member savings within 18 months?';

const events: CruxEventView[] = [
  { type: 'thread_opened', thread: 't1', topic: 'solar co-op', binaryQuestion: null },
  { type: 'binary_question_set', thread: 't1', question: QUESTION, by: 'ethicist', messageId: 'm4' },
  { type: 'stage_transition', thread: 't1', from: 'DISCOVERY', to: 'CRUX_LOCK', reason: 'question accepted' },
  { type: 'primary_crux_changed', from: null, to: 't1' },
  { type: 'thread_closed', thread: 't1', status: 'CONVERGED', reason: 'crux crystallized' },
];

describe('columnsFrom', () => {
  it('names the primary crux by its question, shortened, with the id second and the whole in the tooltip', () => {
    const [note] = columnsFrom(events).notes;
    expect(note?.text).not.toMatch(/now t1\b/);
    expect(note?.text).toMatch(/^The primary crux is now “Will the community-owned solar co-op .*…” \(t1\)\.$/);
    expect(note?.text.length).toBeLessThan(QUESTION.length + 30);
    expect(note?.title).toBe(`${QUESTION} (thread t1)`);
  });

  it('says stage changes and closings in plain words, the codes in the tooltip', () => {
    const items = columnsFrom(events).columns[0]?.items ?? [];
    const notes = items.flatMap((i) => (i.kind === 'note' ? [i] : []));
    const stage = notes.find((n) => n.title === 'DISCOVERY → CRUX_LOCK');
    expect(stage?.text).toBe('finding the disagreement → fixing the crux (question accepted)');
    const closed = notes.find((n) => n.title === 'CONVERGED');
    expect(closed?.text).toBe('closed: done (crux crystallized)');
    expect(notes.map((n) => n.text).join(' ')).not.toMatch(/DISCOVERY|CRUX_LOCK|CONVERGED/);
  });
});
