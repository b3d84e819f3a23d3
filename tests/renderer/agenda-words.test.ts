import { describe, expect, it } from 'vitest';
import type { ThreadProgress } from '../../core/contract';
import { agendaWords } from '../../renderer/src/views/debate/agenda-words';

// A thread column's "Agenda: …" line, for each place the agenda manager can take a question from.

type Agenda = NonNullable<ThreadProgress['agenda']>;
const item = (source: Agenda['source'], from: string | null, messageId: string | null = null): Agenda => ({
  question: source === 'topic' ? 'Financing' : 'Will member loans cover 30% of the cost by 2027?',
  source,
  from,
  messageId,
  relevance: 2,
  reason: 'r',
});

describe('the agenda line', () => {
  it('names the question and, when it is not the thread\u2019s own, where it comes from', () => {
    expect([
      agendaWords(item('thread', 't2')),
      agendaWords(item('topic', null)),
      agendaWords(item('deeper', 't1', 'm11')),
      agendaWords(item('unsettled', 't1')),
      agendaWords(item('stale', 't3')),
    ]).toEqual([
      'Will member loans cover 30% of the cost by 2027?',
      'frame the crux of \u201cFinancing\u201d',
      'Will member loans cover 30% of the cost by 2027? (a deeper crux from t1, m11)',
      'Will member loans cover 30% of the cost by 2027? (the crux of t1, not validated)',
      'Will member loans cover 30% of the cost by 2027? (from t3, gone stale)',
    ]);
  });
});
