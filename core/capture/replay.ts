import { z } from 'zod';
import type { Hasher } from '../ports/hash';
import { lineShape, readScriptLine, ScriptError } from '../text/script-lines';
import { type CapturePlacement, needsChoice, offeredPlacements, parsePlacement, placementWords } from './choice';
import { classifyLexically, type PlacedIdea } from './classify';
import { MODEL_CANDIDATES } from './decision';
import { captureIdentity } from './identity';
import { classificationFromPlacement, placementCheck, placementSchema } from './placement-request';
import { ideaTerms } from './similarity';

/**
 * A capture decision replayed from a script (JSON Lines, like every protocol's replay):
 *
 *   {"type":"capture","text":"…","library":[{"slug":"…","title":"…","summary":"…","body":"…","captured":["…"]}]}
 *   {"type":"placement","output":{…the model's answer…}}      optional: the model decides
 *   {"type":"choice","as":"existing:SLUG"}                      optional: what the researcher chose
 *
 * The library is the ideas the capture is placed against (`captured`: texts captured into an idea
 * before, whose identities its README records); without one, the caller's (a workspace's) is used.
 * Without a placement line the lexical rule decides. The answer is checked as a live one is (a slug
 * written as a title is read as the slug, one not shown is an error naming the line).
 */

const ideaSchema = z.strictObject({
  slug: z.string().trim().min(1),
  title: z.string().trim().min(1),
  summary: z.string().default(''),
  body: z.string().default(''),
  captured: z.array(z.string()).default([]),
});
const headerSchema = z.strictObject({
  type: z.literal('capture'),
  text: z.string().trim().min(1, 'a capture needs some text'),
  library: z.array(ideaSchema).optional(),
});
const placementLineSchema = z.strictObject({ type: z.literal('placement'), output: z.unknown() });
const choiceLineSchema = z.strictObject({ type: z.literal('choice'), as: z.string() });

export interface CaptureReplayResult {
  decision: string;
  by: string;
  slug: string | null;
  candidates: { slug: string; score: number }[];
  inspiredBy: string | null;
  duplicateOf: string | null;
  identity: string;
  /** The researcher had to be asked (not NEW, or captured before). */
  asked: boolean;
  /** What was offered, the likeliest first (`new`, `existing:SLUG`, `inspired:SLUG`). */
  offered: string[];
  /** What was done: the choice, or `new` for a NEW capture nobody was asked about; null while waiting. */
  placed: string | null;
  /** How the model's answer was read where it was not taken as written. */
  repairs: string[];
}

export function replayCapture(
  script: string,
  options: { hasher: Hasher; library?: readonly PlacedIdea[] },
): CaptureReplayResult {
  const lines = script
    .split('\n')
    .map((text, i) => ({ text: text.trim(), line: i + 1 }))
    .filter((l) => l.text !== '');
  const first = lines[0];
  if (!first) throw new ScriptError(1, 'the script is empty: it starts with a "capture" line');
  const header = lineShape(headerSchema, readScriptLine(first.text, first.line, ['capture']), first.line);
  const library =
    header.library?.map((idea) => ({
      ...ideaTerms(idea),
      identities: idea.captured.map((text) => captureIdentity(text, options.hasher)),
    })) ?? options.library;
  if (!library)
    throw new ScriptError(first.line, 'schema violation at library: no library, and no workspace to place it in');

  const identity = captureIdentity(header.text, options.hasher);
  const lexical = classifyLexically(header.text, library, identity);
  let classification = lexical.classification;
  const repairs: string[] = [];
  let choice: CapturePlacement | null = null;
  let answered = false;
  for (const { text, line } of lines.slice(1)) {
    const raw = readScriptLine(text, line, ['placement', 'choice']);
    if (raw.type === 'placement') {
      if (answered || choice) throw new ScriptError(line, 'a placement comes once, before the choice');
      if (!lexical.askable)
        throw new ScriptError(
          line,
          `no model is asked here (${classification.duplicateOf ? 'the text was captured before' : 'the library is empty'})`,
        );
      const { output } = lineShape(placementLineSchema, raw, line);
      const answer = lineShape(placementSchema, output, line);
      const shown = lexical.ranked.slice(0, MODEL_CANDIDATES);
      const checked = placementCheck(shown)(answer);
      if (!checked.ok)
        throw new ScriptError(line, `the answer is refused: ${checked.problems.join('; ').replace(/^- /gm, '')}`);
      repairs.push(...(checked.repairs ?? []));
      classification = classificationFromPlacement(checked.value, lexical.ranked, classification);
      answered = true;
      continue;
    }
    if (choice) throw new ScriptError(line, 'the researcher chooses once');
    const words = lineShape(choiceLineSchema, raw, line).as;
    choice = parsePlacement(words);
    if (!choice)
      throw new ScriptError(line, `schema violation at as: "${words}" is not new, existing:SLUG or inspired:SLUG`);
    const named = choice.as === 'new' ? null : choice.slug;
    if (named !== null && !library.some((idea) => idea.slug === named))
      throw new ScriptError(line, `schema violation at as: no idea "${named}" in the library`);
  }

  const asked = needsChoice(classification);
  return {
    decision: classification.decision,
    by: classification.by,
    slug: classification.slug,
    candidates: classification.candidates.map((c) => ({ slug: c.slug, score: c.score })),
    inspiredBy: classification.inspiredBy,
    duplicateOf: classification.duplicateOf,
    identity,
    asked,
    offered: offeredPlacements(classification).map(placementWords),
    placed: choice ? placementWords(choice) : asked ? null : 'new',
    repairs,
  };
}
