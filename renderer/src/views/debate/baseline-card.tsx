import type { BaselineComparisonView } from '../../../../core/contract';
import { percent } from './outcome-words';
import { baselineCostWords, baselineSideWords } from './baseline-words';

interface Props {
  baseline: BaselineComparisonView;
  agentName: (id: string) => string;
  agentColour: (id: string) => string;
}

const SIDE_WORDS = { YES: 'yes', NO: 'no', UNCERTAIN: 'unsure' } as const;

/**
 * Was the debate worth it? Each debater asked once, alone (side, confidence, the crux it would
 * name), beside where it stood on the debate's crux at the end, and what each of the two cost.
 */
export function BaselineCard({ baseline, agentName, agentColour }: Props) {
  const moved = baselineSideWords(baseline);
  return (
    <section className="card stack outcome-card" aria-labelledby="baseline-title" data-testid="baseline">
      <h2 id="baseline-title">Without the debate</h2>
      <p className="outcome-line small" data-testid="baseline-cost">
        {baselineCostWords(baseline)}
        {moved ? ` ${moved}` : ''}
      </p>
      <p className="outcome-line small muted">The debate’s crux: {baseline.debateCrux ?? 'none crystallized'}</p>
      <table className="data small" aria-label="Alone and after the debate">
        <thead>
          <tr>
            <th>Debater</th>
            <th>Alone</th>
            <th>The crux it would name</th>
            <th>After the debate</th>
          </tr>
        </thead>
        <tbody>
          {baseline.agents.map((a) => (
            <tr key={a.agent}>
              <td>
                <strong style={{ color: agentColour(a.agent) }}>{agentName(a.agent)}</strong>
              </td>
              <td>
                {a.single ? `${SIDE_WORDS[a.single.side]}, ${percent(a.single.confidence)}` : `failed: ${a.error}`}
              </td>
              <td>{a.single?.crux ?? '—'}</td>
              <td>{a.debate ? `${SIDE_WORDS[a.debate.side]}, ${percent(a.debate.confidence)}` : '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
