import { plainWords } from '../../ui/glossary';
import { Help } from '../../ui/help';
import { type Part, phaseTerm } from './entry-words';

/** A protocol code in words, the code itself in the tooltip, and a (?) to the glossary. */
export function Term({ term, code, className }: { term: string; code?: string; className?: string }) {
  return (
    <span className="eval-term">
      <span className={className} title={code ?? term} data-code={code ?? term}>
        {plainWords(term)}
      </span>
      <Help term={term} />
    </span>
  );
}

/** Where an evaluation stands in its protocol ("red team debating"), not its code (DEBATING). */
export function PhaseBadge({ phase }: { phase: string }) {
  return (
    <span className="eval-term">
      <span className="badge" data-testid="evaluation-phase" data-code={phase} title={phase}>
        {plainWords(phaseTerm(phase))}
      </span>
      <Help term={phaseTerm(phase)} />
    </span>
  );
}

/** The evaluation's advice in words ("refine"), the code (REFINE) in the tooltip, a (?) beside. */
export function RecommendationBadge({ code, className }: { code: string | null; className?: string }) {
  if (code === null) return <span className={className ? `muted ${className}` : 'muted'}>—</span>;
  return (
    <span className="eval-term">
      <span
        className={className ? `badge accent ${className}` : 'badge accent'}
        data-testid="recommendation"
        data-code={code}
        title={`recommendation: ${code}`}
      >
        {plainWords(code)}
      </span>
      <Help term={code} />
    </span>
  );
}

/** A category's weight, labelled: its share of the overall score (the weights add up to 1). */
export function WeightFigure({ weight }: { weight: number }) {
  return (
    <span className="muted small" data-testid="weight">
      <span title="weight: this category’s share of the overall score; the weights add up to 1">weight ×{weight}</span>
      <Help term="weight" />
    </span>
  );
}

/** An entry's line, its codes shown as words with a (?). */
export function Parts({ parts }: { parts: Part[] }) {
  return (
    <>
      {parts.map((p, i) =>
        typeof p === 'string' ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one line, in order, never reordered
          <span key={i}>{p}</span>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: as above
          <Term key={i} term={p.term} code={p.code} />
        ),
      )}
    </>
  );
}
