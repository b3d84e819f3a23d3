import { z } from 'zod';
import { hasVagueWord } from './keywords';

/** What would prove a position wrong, by when; a crux's positions and the falsifier events carry it. */
export const falsifierSchema = z.object({
  metric: z.string(),
  threshold: z.string(),
  deadline: z.string(),
  reasoning: z.string().optional(),
});
export type Falsifier = z.infer<typeof falsifierSchema>;

/** A threshold has to be checkable: a digit or a comparison/percent sign. */
const THRESHOLD_MARK = /[\p{Nd}<>=≤≥%]/u;

export function isValidFalsifier(f: Falsifier): boolean {
  const metric = f.metric.trim();
  const threshold = f.threshold.trim();
  const deadline = f.deadline.trim();
  if (metric === '' || threshold === '' || deadline === '') return false;
  if (hasVagueWord(metric) || hasVagueWord(threshold)) return false;
  return THRESHOLD_MARK.test(threshold);
}

export type ParsedFalsifier = { ok: true; falsifier: Falsifier } | { ok: false; reason: string };

/**
 * Reads a falsifier out of untyped message meta. A wrong *shape* (not an object, a field that is
 * not text) is a malformed move; a missing field only makes the falsifier vague, because that is
 * the agent failing to be concrete, which the protocol answers with a FALSIFIER_REQUEST.
 */
export function parseFalsifier(value: unknown): ParsedFalsifier {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, reason: 'falsifier must be an object {metric, threshold, deadline, reasoning?}' };
  }
  const record = value as Record<string, unknown>;
  const text: Record<string, string> = {};
  for (const key of ['metric', 'threshold', 'deadline'] as const) {
    const field = record[key];
    if (field !== undefined && field !== null && typeof field !== 'string') {
      return { ok: false, reason: `falsifier.${key} must be a string` };
    }
    text[key] = field ?? '';
  }
  const reasoning = record.reasoning;
  if (reasoning !== undefined && reasoning !== null && typeof reasoning !== 'string') {
    return { ok: false, reason: 'falsifier.reasoning must be a string' };
  }
  const falsifier: Falsifier = {
    metric: text.metric ?? '',
    threshold: text.threshold ?? '',
    deadline: text.deadline ?? '',
  };
  if (typeof reasoning === 'string') falsifier.reasoning = reasoning;
  return { ok: true, falsifier };
}
