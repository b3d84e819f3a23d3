import type { FinalSynthesisDocument } from '../../evaluation';
import {
  contentCheck,
  linkWords,
  relatedCheck,
  type StaleCheck,
  timeDecayCheck,
} from '../../evaluation/reopen-triggers';
import { getIdea, ideaRelationships } from '../sqlite/index-sql';
import type { Workspace } from '../workspace/workspace';
import type { EvaluationRecords } from './evaluation-records';

/**
 * Every reopen trigger of an idea's current locked evaluation, each weighed by its materiality
 * check (core/evaluation/reopen-triggers.ts): its own inputs changed, a related idea re-evaluated
 * since, and time. Read from the index (the relationships, which evaluation is current) and the
 * records in the ideas' folders.
 */
export function stalenessChecks(
  ws: Workspace,
  records: EvaluationRecords,
  slug: string,
  doc: FinalSynthesisDocument,
  contentStale: boolean,
  now: Date,
): StaleCheck[] {
  const checks: StaleCheck[] = [];
  const content = contentCheck(contentStale);
  if (content) checks.push(content);
  const seen = new Set<string>();
  for (const r of ideaRelationships(ws.db, slug)) {
    const outgoing = r.source === slug;
    const other = outgoing ? r.target : r.source;
    // A symmetric link written in both READMEs is two rows: weighed once, from this idea's own.
    if (other === slug || seen.has(other)) continue;
    seen.add(other);
    const idea = getIdea(ws.db, other);
    if (!idea) continue;
    const id = records.idea(other)?.evaluationId ?? null;
    const current = id ? (records.record(other, id, false)?.doc ?? null) : null;
    const previous = current?.supersedes ? (records.record(other, current.supersedes, false)?.doc ?? null) : null;
    const check = relatedCheck(doc.completedAt, {
      slug: other,
      title: idea.title,
      type: r.type,
      strength: r.strength,
      link: linkWords(r.type, outgoing),
      current: current
        ? {
            completedAt: current.completedAt,
            overallScore: current.composites.overallScore,
            recommendation: current.narrative.recommendation,
          }
        : null,
      previous: previous
        ? { overallScore: previous.composites.overallScore, recommendation: previous.narrative.recommendation }
        : null,
    });
    if (check) checks.push(check);
  }
  checks.push(
    timeDecayCheck(
      {
        completedAt: doc.completedAt,
        confidence: doc.composites.overallConfidence,
        minimum: doc.config.confidence.minimum,
      },
      now,
    ),
  );
  return checks;
}
