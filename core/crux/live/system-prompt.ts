import { CRYSTALLIZER_RULES, PROTOCOL_RULES } from './rules';
import { type DebateSubject, subjectBlock } from './subject';

/**
 * The one place where a crux request's system prompt is put together. The order runs from the
 * most shared to the least: the rules and the subject (the same for every debater of this debate),
 * then the persona (one agent's). They are kept as two parts so a prompt cache can keep the shared
 * part once for all agents and the persona once per agent; rearranging for a provider's cache
 * happens here and nowhere else.
 */
export function debaterSystemParts(subject: DebateSubject, persona: string): [string, string] {
  return [[PROTOCOL_RULES, subjectBlock(subject)].join('\n\n'), personaBlock(persona)];
}

export function debaterSystem(subject: DebateSubject, persona: string): string {
  return debaterSystemParts(subject, persona).join('\n\n');
}

/** The crystallizer records a debate; it takes no part, so it is not given the debaters' rules. */
export function crystallizerSystem(subject: DebateSubject, persona: string): string {
  return [CRYSTALLIZER_RULES, subjectBlock(subject), personaBlock(persona)].join('\n\n');
}

function personaBlock(persona: string): string {
  return `# Who you are\n\n${persona.trim()}`;
}
