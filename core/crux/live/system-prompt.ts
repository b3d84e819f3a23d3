import { CRYSTALLIZER_RULES, PROTOCOL_RULES } from './rules';
import { type DebateSubject, subjectBlock } from './subject';

/**
 * The one place where a crux request's system prompt is put together. The order runs from the
 * most shared to the least: the rules (the same for every debater of every debate), then the subject
 * (the same for every agent of this debate), then the persona (one agent's). A prompt cache can then
 * reuse the longest common head; rearranging for a provider's cache happens here and nowhere else.
 */
export function debaterSystem(subject: DebateSubject, persona: string): string {
  return [PROTOCOL_RULES, subjectBlock(subject), `# Who you are\n\n${persona.trim()}`].join('\n\n');
}

/** The crystallizer records a debate; it takes no part, so it is not given the debaters' rules. */
export function crystallizerSystem(subject: DebateSubject, persona: string): string {
  return [CRYSTALLIZER_RULES, subjectBlock(subject), `# Who you are\n\n${persona.trim()}`].join('\n\n');
}
