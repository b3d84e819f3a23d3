import type { ArenaDetail } from '../../../../core/contract';
import { Help } from '../../ui/help';
import { passWords } from './arena-words';

/** The judge's scores (0–10) with reasons, in ranking order, for each judgment; the lead that decides a split. */
export function JudgeCard({ d, nameOf }: { d: ArenaDetail; nameOf: (id: string) => string }) {
  return (
    <section className="card stack arena-card" aria-labelledby="arena-judge" data-testid="arena-judge">
      <h3 id="arena-judge">
        The judge’s scores and ranking
        <Help term="judge-score" />
      </h3>
      <p className="small muted">
        {d.judge.name} scores every proposal from 0 to 10. Without a consensus, a lead of 1.0 or more decides.
      </p>
      {d.judgments.length === 0 && <p className="small muted">Not judged yet.</p>}
      {d.judgments.map((j) => (
        <div key={j.pass} className="stack" data-testid="arena-judgment">
          {d.judgments.length > 1 && <strong className="small">After {passWords(j.pass)}</strong>}
          <ol className="arena-ranking">
            {j.scores.map((s) => (
              <li key={s.agent}>
                <div className="row small">
                  <strong>{nameOf(s.agent)}</strong>
                  <span className="badge">{s.overall.toFixed(1)}/10</span>
                </div>
                <p className="small muted">{s.reasons}</p>
              </li>
            ))}
          </ol>
          <p className="small">
            Lead of the first over the second: <strong>{j.lead.toFixed(1)}</strong>
            {j.lead >= 1 ? ' (a clear lead)' : ' (not a clear lead)'}. {j.summary}
          </p>
        </div>
      ))}
    </section>
  );
}
