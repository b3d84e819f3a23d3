/**
 * What an arena tells an agent about who it is. A debater's prompt is written for crux debates: it
 * opens with who the persona is and how it argues (its worldview, what it trusts as evidence, the
 * questions it asks), then says what to do at the crux debate's stages: at the lock (a side, a
 * horizon, falsifiers, steelmans) and in the evidence stage, and how to word a falsifier. An arena
 * has none of those stages; its own rules say what each round asks. So an arena sends the opening
 * only: the prompt's paragraphs up to the first that speaks of a crux stage. Those instructions were
 * a third of what each arena call sent uncached, and an agent told to commit a side and a falsifier
 * in an arena that asks for neither is told something it cannot follow.
 *
 * A prompt that never speaks of a crux stage (the judge's, the trickster's, a workspace persona
 * written for arenas) is sent whole, and so is one whose very first paragraph does: an agent is never
 * left without the words that make it who it is. Crux debates read the prompt as it is.
 */

/** Words that belong to a crux debate's stages, not to a persona's identity. */
const CRUX_STAGE = /\b(lock|evidence stage|falsifiers?|steelman(s|ned|ning)?|top claim)\b/i;

/** The paragraphs of a prompt: the runs of text between blank lines. */
function paragraphs(prompt: string): string[] {
  return prompt
    .split(/\n[ \t]*\n/)
    .map((p) => p.trim())
    .filter((p) => p !== '');
}

/** The part of a persona's prompt an arena sends: the paragraphs before the first crux-stage one. */
export function arenaPersonaText(prompt: string): string {
  const all = paragraphs(prompt);
  const firstStage = all.findIndex((p) => CRUX_STAGE.test(p));
  if (firstStage <= 0) return prompt.trim();
  return all.slice(0, firstStage).join('\n\n');
}
