// The lock check's failure codes (core/crux/lock.ts: MIN_COMMITMENTS, NO_SPLIT,
// STEELMAN_GIVE:<agent>, STEELMAN_RECEIVE:<agent>, STEELMAN_PAIR:<a>-><b>, FALSIFIER_MISSING:<agent>)
// in words, debaters by their names: a reader should not have to decode "STEELMAN_RECEIVE:historian".

/** A list of names joined as a sentence does ("A, B and C"; `or` after a negation). */
function list(names: readonly string[], last: 'and' | 'or' = 'and'): string {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} ${last} ${names[names.length - 1]}`;
}

/**
 * One sentence part per kind of failure, in the order the check runs, agents of one kind gathered
 * ("Investor and Historian gave no accurate steelman"); an unknown code is kept as it is.
 */
export function lockFailureWords(codes: readonly string[], name: (agent: string) => string = (a) => a): string[] {
  const give: string[] = [];
  const receive: string[] = [];
  const missing: string[] = [];
  const pairs: string[] = [];
  const parts: string[] = [];
  for (const code of codes) {
    const [kind, rest = ''] = code.split(':', 2) as [string, string?];
    if (code === 'MIN_COMMITMENTS') parts.push('fewer than two debaters committed to an answer');
    else if (code === 'NO_SPLIT')
      parts.push('the answers did not split the debaters (no one said yes, or no one said no)');
    else if (kind === 'STEELMAN_GIVE') give.push(name(rest));
    else if (kind === 'STEELMAN_RECEIVE') receive.push(name(rest));
    else if (kind === 'STEELMAN_PAIR') {
      const [from = '', to = ''] = rest.split('->');
      pairs.push(`${name(from)} gave no accurate steelman of ${name(to)}`);
    } else if (kind === 'FALSIFIER_MISSING') missing.push(name(rest));
    else parts.push(code);
  }
  const out = [...parts];
  if (give.length > 0) out.push(`${list(give)} gave no accurate steelman of the other side`);
  if (receive.length > 0) out.push(`nobody on the other side steelmanned ${list(receive, 'or')} accurately`);
  out.push(...pairs);
  if (missing.length > 0) out.push(`${list(missing)} named no falsifier`);
  return out;
}

/** The note of a failed lock attempt: "Lock attempt 2 of 3 failed: …". */
export function lockFailedNote(
  attempt: number,
  max: number | undefined,
  codes: readonly string[],
  name?: (agent: string) => string,
): string {
  const words = lockFailureWords(codes, name);
  return `Lock attempt ${attempt}${max ? ` of ${max}` : ''} failed${words.length > 0 ? `: ${words.join('; ')}` : ''}`;
}

/** Why a crystallized crux did not validate (core/crux/validation.ts and the review), in words. */
const VALIDATION_WORDS: Record<string, string> = {
  NO_SPLIT: 'the answers do not split the debaters',
  FEW_CRITERIA: 'fewer than two ways to settle it',
  VAGUE_CRITERION: 'a way to settle it is vague',
  NOT_DECISION_RELEVANT: 'fewer than two debaters would change their minds on it',
  MEASUREMENT_QUESTION: 'it asks for a measurement, not a yes/no question about the future',
  NEEDS_CLARIFICATION: 'a debater asked for it to be worded more clearly',
};

export function validationFailureWords(codes: readonly string[], name: (agent: string) => string = (a) => a): string[] {
  const vague: string[] = [];
  const out: string[] = [];
  for (const code of codes) {
    const [kind, agent = ''] = code.split(':', 2) as [string, string?];
    if (kind === 'VAGUE_FALSIFIER') vague.push(name(agent));
    else out.push(VALIDATION_WORDS[code] ?? code);
  }
  if (vague.length === 1) out.push(`the falsifier of ${vague[0]} is vague`);
  if (vague.length > 1) out.push(`the falsifiers of ${list(vague)} are vague`);
  return out;
}
