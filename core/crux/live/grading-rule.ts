/**
 * A persona's rule for grading steelmans of its view, as written in its prompt ("grade steelmans of
 * yours on whether they name the rule you rely on"). The agent who must write the steelman never sees
 * that prompt, so the rule is quoted in its ask; without it an honest grader fails honest steelmans.
 */
export function gradingRuleOf(systemPrompt: string): string | null {
  for (const line of systemPrompt.split('\n')) {
    const at = line.search(/grade steelmans/i);
    if (at < 0) continue;
    const rule = line.slice(at).trim();
    return rule.charAt(0).toUpperCase() + rule.slice(1);
  }
  return null;
}
