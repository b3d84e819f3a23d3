import type { CruxResultView } from '../../../../core/contract';

// What a finished debate found, said in sentences: the outcome card reads these, the tests check
// them. Numbers keep their names and ranges so a reader can tie a sentence to the charts.

type Crux = NonNullable<CruxResultView['threads'][number]['crux']>;

const pct = (n: number) => `${Math.round(n * 100)}%`;

/** The debate's regime as one sentence a researcher can act on. */
export function regimeWords(result: CruxResultView): string {
  switch (result.regime) {
    case 'polarized':
      return 'The debaters disagree, and the disagreement comes down to a question a future fact can settle.';
    case 'consensus':
      return 'The debaters ended up agreeing: no crux was left that splits them.';
    case 'inconclusive':
      return 'No crux held up: the debaters never pinned their disagreement to a question that evidence could settle.';
    default:
      return `The debate stopped before every thread ended: what follows is what it found so far.${result.confidence === 'LOW' ? ' Confidence: LOW.' : ''}`;
  }
}

/** The thread whose crux the outcome leads with: the primary crux, or else the best crystallized one. */
export function leadingThread(
  result: CruxResultView,
): { thread: CruxResultView['threads'][number]; primary: boolean } | null {
  const primary = result.threads.find((t) => t.id === result.primaryCrux && t.crux);
  if (primary) return { thread: primary, primary: true };
  const best = result.threads
    .filter((t) => t.crux)
    .sort((a, b) => (b.crux?.dcg.score ?? 0) - (a.crux?.dcg.score ?? 0))[0];
  return best ? { thread: best, primary: false } : null;
}

/** The DCG of a crux in words: what share it covers, how evenly it splits, how firmly it is held. */
export function dcgWords(crux: Crux, debaters: number): string {
  const sides = Object.values(crux.positions);
  const yes = sides.filter((p) => p.side === 'YES').length;
  const no = sides.filter((p) => p.side === 'NO').length;
  const covered = Math.round(crux.dcg.coverage * debaters);
  return (
    `It captures ${covered} of ${debaters} debaters’ disagreement (coverage ${crux.dcg.coverage.toFixed(2)}), ` +
    `splits them ${yes} yes to ${no} no (polarity ${crux.dcg.polarity.toFixed(2)}, 1 is an even split) ` +
    `and is held at ${pct(crux.dcg.impact)} confidence on average (impact ${crux.dcg.impact.toFixed(2)}): ` +
    `DCG ${crux.dcg.score.toFixed(2)} of at most 1.`
  );
}

export const percent = pct;

/**
 * How the debaters' positions moved, in one sentence, or null when none did: how many changes came
 * after a new argument aimed at the debater, how many only followed the majority, and the dissent
 * that was left. The label comes first when the agreement rests mostly on following the majority.
 */
export function conformityWords(result: CruxResultView): string | null {
  const c = result.conformity;
  if (!c) return null;
  const n = c.changes.length;
  const label = c.label
    ? `Possibly conformity: the agreement${c.conformityThreads.length > 1 ? 's' : ''} in ${c.conformityThreads.join(', ')} came mostly from debaters taking the majority’s side with no new argument aimed at them. `
    : '';
  return (
    `${label}${n} position change${n === 1 ? '' : 's'}: ${c.afterArgument} after a new argument aimed at the debater, ` +
    `${c.majorityAdoptions} only following the majority (${pct(c.majorityAdoptionRate)}), ${c.unexplained} neither. ` +
    `Dissent: ${c.dissent.initial} in the smaller camp at the first commitments, ${c.dissent.final} at the end.`
  );
}
