import type { DebateSubject } from './subject';

/**
 * Links a debater may give. A model has no documents beyond the idea, so an address it writes is
 * either copied from the idea or made up; only the first kind may reach the transcript.
 */

/** http(s) and www. addresses in a text, without the punctuation that ends the sentence around them. */
export function linksIn(text: string): string[] {
  const found = text.match(/\b(?:https?:\/\/|www\.)[^\s<>"'`]+/gi) ?? [];
  return found.map((link) => link.replace(/[.,;:!?)\]}]+$/, '')).filter((link) => link.length > 0);
}

/** Every word of the subject the agents read (see `subjectBlock`): where a link may come from. */
export function subjectText(subject: DebateSubject): string {
  return subject.kind === 'topic' ? subject.text : [subject.title, subject.summary, subject.body].join('\n');
}

/** An address compared without its scheme, `www.`, a trailing slash or case. */
function bare(link: string): string {
  return link
    .trim()
    .toLowerCase()
    .replace(/^https?:\/\//, '')
    .replace(/^www\./, '')
    .replace(/\/+$/, '');
}

/** Whether `link` appears in the subject's text (written with or without its scheme or `www.`). */
export function linkInSubject(link: string, subject: DebateSubject): boolean {
  const address = bare(link);
  if (address === '') return false;
  return subjectText(subject).toLowerCase().includes(address);
}
