import type { EvaluationDetail } from '../../../../core/contract';
import { href } from '../../router';
import { Help } from '../../ui/help';
import { Markdown } from '../../ui/markdown';
import { pct, score } from './format';
import { LockBadge } from './lock-badge';
import { confidenceSentence, lockSentence, strongestAndWeakest } from './outcome-words';
import { RecommendationBadge } from './terms';

/**
 * What a finished evaluation found, above its columns: the advice in words, the overall score and
 * the confidence each with its range and meaning, whether the scores converged (amber when a limit
 * locked them first), the strongest and weakest criteria, and the ways on to the charts, the
 * transcript and the export.
 */
/** A few criteria with their scores, under a heading. */
function CriteriaList({
  title,
  testId,
  criteria,
}: {
  title: string;
  testId: string;
  criteria: readonly { id: string; name: string; score: number | null }[];
}) {
  return (
    <div>
      <h3 className="small">{title}</h3>
      <ul className="small" data-testid={testId}>
        {criteria.map((c) => (
          <li key={c.id}>
            {c.name} <span className="num">{c.score}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

export function EvaluationOutcomeCard({ d }: { d: EvaluationDetail }) {
  const minimum = d.options.minConfidence ?? d.latestConvergence?.conditions.confidence.minimum ?? 0.7;
  const converged = d.latestConvergence?.converged ?? null;
  const { strongest, weakest } = strongestAndWeakest(d.criteria, 3);
  return (
    <section
      className="card stack eval-result eval-outcome"
      aria-labelledby="eval-outcome-title"
      data-testid="eval-outcome"
    >
      <h2 id="eval-outcome-title">What the evaluation found</h2>
      <div className="row">
        <span className="muted">Recommendation</span>
        <RecommendationBadge code={d.recommendation} />
        <LockBadge reason={d.lockReason} />
      </div>
      {d.narrative?.recommendationReasoning && (
        <p className="small" data-testid="recommendation-reasoning">
          {d.narrative.recommendationReasoning}
        </p>
      )}
      <dl className="eval-outcome-figures">
        <div>
          <dt>
            Overall score (0–10)
            <Help term="overall-score" />
          </dt>
          <dd>
            <span className="big num" data-testid="overall-score">
              {score(d.overallScore)}
            </span>{' '}
            <span className="muted">/ 10</span>
          </dd>
        </div>
        <div>
          <dt>
            Confidence (0–1)
            <Help term="evaluation-confidence" />
          </dt>
          <dd data-testid="outcome-confidence">{confidenceSentence(d.confidence, minimum)}</dd>
        </div>
        <div>
          <dt>
            Red-team survival (0–100%)
            <Help term="red-team-survival" />
          </dt>
          <dd>
            {pct(d.redTeamSurvival)} of the debated challenges defended, over {d.round} round{d.round === 1 ? '' : 's'}
          </dd>
        </div>
      </dl>
      <p className="small" data-testid="outcome-converged">
        {lockSentence(d.lockReason, converged)}
      </p>
      {strongest.length > 0 && (
        <div className="eval-outcome-extremes">
          <CriteriaList title="Strongest criteria (1–10)" testId="strongest" criteria={strongest} />
          <CriteriaList title="Weakest criteria (1–10)" testId="weakest" criteria={weakest} />
        </div>
      )}
      {d.narrative && <Markdown text={d.narrative.executiveSummary} className="executive-summary" />}
      <nav className="row small" aria-label="More on this evaluation">
        <a href={href('convergence', d.id)}>Convergence charts</a>
        <a href={href('transcript', 'evaluation', d.id)}>Transcript</a>
        <a href={href('export', { source: 'synthesis', id: d.slug })}>Export the synthesis</a>
        <a href={href('leaderboards')}>Leaderboards</a>
      </nav>
    </section>
  );
}
