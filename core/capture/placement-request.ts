import { z } from 'zod';
import { canonicalWord } from '../llm/answer-repair';
import type { AnswerCheck, LlmBrief, LlmRequest, ModelTier } from '../ports/llm';
import { CAPTURE_DECISIONS, type CaptureClassification, MODEL_CANDIDATES, SHOWN_CANDIDATES } from './decision';
import type { CandidateScore } from './similarity';

/**
 * The model's part of placing a capture: shown the text and the library's closest ideas (the lexical
 * measure's best five, with their scores), it says NEW, EXISTING (which one) or AMBIGUOUS (which to
 * offer), and the idea it is close to but distinct from. Its answer is held to the candidates it was
 * shown: a slug written as the idea's name or title is read as that slug; one not shown is re-asked.
 */

export const placementSchema = z.object({
  decision: z
    .enum(CAPTURE_DECISIONS)
    .describe('NEW: a new idea; EXISTING: it adds to one idea; AMBIGUOUS: the researcher must choose'),
  slug: z
    .string()
    .nullable()
    .describe('EXISTING: the slug of the idea it belongs to, exactly as listed; otherwise null'),
  candidates: z
    .array(z.string())
    .max(SHOWN_CANDIDATES)
    .describe('AMBIGUOUS: the slugs the researcher should choose between, best first; otherwise empty'),
  inspiredBy: z
    .string()
    .nullable()
    .describe('NEW or AMBIGUOUS: the slug of an idea it is close to but distinct from, if any; otherwise null'),
  reason: z.string().min(1).describe('why, in one sentence that cites the text'),
});
export type PlacementAnswer = z.infer<typeof placementSchema>;

/** The brief of a placement request (see `LlmBrief`); `core/capture/simulator.ts` answers it. */
export interface CaptureBrief extends LlmBrief {
  protocol: 'capture';
  kind: 'placement';
  /** The capture's distinct terms (the lexical measure's basis). */
  terms: number;
  candidates: { slug: string; title: string; summary: string; score: number; shared: string[] }[];
}

/** The most of a capture's text a request carries. */
const TEXT_LIMIT = 6000;

export function placementRequest(
  persona: { systemPrompt: string; tier: ModelTier },
  text: string,
  candidates: readonly (CandidateScore & { summary: string })[],
  terms: number,
): LlmRequest<PlacementAnswer> {
  const shown = candidates.slice(0, MODEL_CANDIDATES);
  const brief: CaptureBrief = {
    protocol: 'capture',
    kind: 'placement',
    terms,
    candidates: shown.map((c) => ({
      slug: c.slug,
      title: c.title,
      summary: c.summary,
      score: c.score,
      shared: c.shared,
    })),
  };
  const listed = shown
    .map(
      (c) =>
        `- ${c.slug}: ${c.title} — ${c.summary} (shares ${Math.round(c.score * 100)}% of the text's weighed terms)`,
    )
    .join('\n');
  const cut = text.length > TEXT_LIMIT ? `${text.slice(0, TEXT_LIMIT)}\n[… cut]` : text;
  return {
    system: persona.systemPrompt,
    messages: [
      {
        role: 'user',
        content:
          `The researcher just captured this text:\n\n${cut}\n\n` +
          `The ideas of the library closest to it:\n${listed}\n\n` +
          'Is it a NEW idea, or does it belong to one of these (EXISTING: it adds to that idea, name its slug)? ' +
          'When it could be either, answer AMBIGUOUS and name the ideas to offer, best first. ' +
          'When it is a new idea but grew out of one of these, name that one as inspiredBy. ' +
          'Use only the slugs listed.',
      },
    ],
    stablePrefix: 0,
    cache: false,
    brief,
    schema: placementSchema,
    schemaName: 'capture_placement',
    schemaDescription: 'Where the captured text belongs.',
    tier: persona.tier,
    maxTokens: 400,
    check: placementCheck(shown),
  };
}

/** The slug a model's words name among the candidates (its slug, its name or its title), or null. */
function slugOf(candidates: readonly { slug: string; title: string }[], words: string): string | null {
  if (candidates.some((c) => c.slug === words)) return words;
  const key = canonicalWord(words);
  const found = candidates.filter((c) => canonicalWord(c.slug) === key || canonicalWord(c.title) === key);
  return found.length === 1 ? (found[0] as { slug: string }).slug : null;
}

/** Holds an answer to the candidates it was shown (see the file comment). */
export function placementCheck(candidates: readonly { slug: string; title: string }[]) {
  const listed = candidates.map((c) => c.slug).join(', ') || 'none';
  return (answer: PlacementAnswer): AnswerCheck<PlacementAnswer> => {
    const repairs: string[] = [];
    const problems: string[] = [];
    const read = (words: string, field: string): string | null => {
      const slug = slugOf(candidates, words.trim());
      if (slug === null) problems.push(`- ${field}: "${words}" is not one of the ideas listed (${listed})`);
      else if (slug !== words) repairs.push(`${field}: "${words}" read as ${slug}`);
      return slug;
    };
    const slug = answer.slug === null || answer.slug.trim() === '' ? null : read(answer.slug, 'slug');
    const offered = answer.candidates.map((c, i) => read(c, `candidates[${i}]`));
    const inspiredBy =
      answer.inspiredBy === null || answer.inspiredBy.trim() === '' ? null : read(answer.inspiredBy, 'inspiredBy');
    if (answer.decision === 'EXISTING' && answer.slug === null)
      problems.push('- slug: EXISTING names the idea the text belongs to');
    if (answer.decision === 'AMBIGUOUS' && answer.candidates.length === 0 && answer.slug === null)
      problems.push('- candidates: AMBIGUOUS names the ideas to choose between');
    if (problems.length > 0) return { ok: false, problems };
    const chosen = offered.filter((s): s is string => s !== null);
    return {
      ok: true,
      value: {
        ...answer,
        slug: answer.decision === 'EXISTING' ? slug : null,
        // An AMBIGUOUS answer that named one idea as `slug` instead of listing it offers that idea.
        candidates: answer.decision === 'AMBIGUOUS' ? [...new Set(chosen.length ? chosen : [slug as string])] : [],
        inspiredBy: answer.decision === 'EXISTING' ? null : inspiredBy,
      },
      ...(repairs.length ? { repairs } : {}),
    };
  };
}

/** The model's answer as a classification, its candidates scored as the lexical measure scored them. */
export function classificationFromPlacement(
  answer: PlacementAnswer,
  ranked: readonly CandidateScore[],
  base: Pick<CaptureClassification, 'identity' | 'terms'>,
): CaptureClassification {
  const scoreOf = (slug: string) => ranked.find((c) => c.slug === slug) as CandidateScore;
  const candidates =
    answer.decision === 'AMBIGUOUS'
      ? answer.candidates.map(scoreOf)
      : answer.decision === 'EXISTING'
        ? [scoreOf(answer.slug as string), ...ranked.filter((c) => c.slug !== answer.slug && c.score > 0)].slice(
            0,
            SHOWN_CANDIDATES,
          )
        : ranked.filter((c) => c.score > 0).slice(0, SHOWN_CANDIDATES);
  return {
    ...base,
    decision: answer.decision,
    slug: answer.slug,
    candidates,
    inspiredBy: answer.inspiredBy,
    duplicateOf: null,
    by: 'model',
    reason: answer.reason,
  };
}
