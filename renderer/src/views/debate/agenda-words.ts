import type { ThreadProgress } from '../../../../core/contract';

type Agenda = NonNullable<ThreadProgress['agenda']>;

/**
 * A thread column's "Agenda: …" line: the open question the agenda manager has the thread work on
 * next, and where that question comes from when it is not the thread's own.
 */
export function agendaWords(agenda: Agenda): string {
  switch (agenda.source) {
    case 'thread':
      return agenda.question;
    case 'topic':
      return `frame the crux of \u201c${agenda.question}\u201d`;
    case 'deeper':
      return `${agenda.question} (a deeper crux from ${agenda.from}${agenda.messageId ? `, ${agenda.messageId}` : ''})`;
    case 'unsettled':
      return `${agenda.question} (the crux of ${agenda.from}, not validated)`;
    case 'stale':
      return `${agenda.question} (from ${agenda.from}, gone stale)`;
  }
}
