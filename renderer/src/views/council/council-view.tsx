import type { Route } from '../../router';
import { href } from '../../router';
import { useChannel, usePush } from '../../api/hooks';
import { ErrorNotice } from '../../ui/error-notice';
import { Help } from '../../ui/help';
import { FiguresPanel } from './figures-panel';
import { RunTaskForm } from './run-task-form';
import { TaskDetail } from './task-detail';
import { WeightsPanel } from './weights-panel';
import { OUTCOME_WORDS, STATUS_WORDS, statusTone } from './words';
import './council.css';

/**
 * The council (`#/council`, `#/council/<task id>`): give it a task, follow every task's proposals
 * through their lifecycle, and see the agents' value weights with their history. One task's page
 * shows its proposals in full: versions, votes with rationales, flags, the ladder, what executed,
 * and the revert.
 */
export function CouncilView({ route }: { route: Route }) {
  const id = route.params[0];
  if (id) return <TaskDetail id={id} />;
  return <CouncilHome startOpen={route.query.get('start') === '1'} />;
}

function CouncilHome({ startOpen }: { startOpen: boolean }) {
  const list = useChannel('council:list', {});
  usePush('proposal:changed', () => list.reload());
  usePush('run:status', (r) => {
    if (r.protocol === 'council') list.reload();
  });
  const tasks = list.data?.tasks ?? [];
  return (
    <section className="view council-view">
      <h1>
        Council <Help term="council" />
      </h1>
      <p className="muted council-intro">
        Three agents carry out a task on your ideas. The executor <Help term="executor" /> proposes, the verifier{' '}
        <Help term="verifier" /> reviews first, the integrator <Help term="integrator" /> reviews last and seeks the
        middle way. Nothing is written without their consensus; what is risky waits for you in{' '}
        <a href={href('approvals')}>Approvals</a>
        {list.data && list.data.waiting > 0 ? ` (${list.data.waiting} waiting)` : ''}; everything executed can be
        reverted in one step.
      </p>
      <RunTaskForm autoFocus={startOpen} />
      <section aria-label="Tasks" className="council-tasks">
        <h2>Tasks</h2>
        <ErrorNotice error={list.error} />
        {list.data && tasks.length === 0 && <p className="muted">No task yet.</p>}
        {tasks.length > 0 && (
          <div className="council-table-wrap">
            <table className="data" data-testid="council-tasks">
              <thead>
                <tr>
                  <th>task</th>
                  <th>idea</th>
                  <th>outcome</th>
                  <th>proposals</th>
                  <th>started</th>
                  <th className="num">cost</th>
                </tr>
              </thead>
              <tbody>
                {tasks.map((t) => (
                  <tr key={t.id} data-testid="council-task-row">
                    <td>
                      <a href={href('council', t.id)}>{t.task}</a>
                      {t.run?.live && <span className="badge accent council-live">running</span>}
                    </td>
                    <td>{t.idea ? <a href={href('idea', t.idea)}>{t.idea}</a> : <span className="muted">—</span>}</td>
                    <td>
                      <span
                        className={`badge ${t.outcome === 'AWAITING_RESEARCHER' ? 'warn' : t.outcome === 'COMPLETED' ? 'ok' : t.outcome === 'FAILED' ? 'danger' : ''}`}
                      >
                        {OUTCOME_WORDS[t.outcome]}
                      </span>
                    </td>
                    <td>
                      <span className="row council-chips">
                        {t.proposals.map((p) => (
                          <span key={p.id} className={`badge ${statusTone(p.status)}`} title={p.goal}>
                            {p.proposal} {STATUS_WORDS[p.status]}
                          </span>
                        ))}
                        {t.proposals.length === 0 && <span className="muted small">none yet</span>}
                      </span>
                    </td>
                    <td className="small">{t.run ? new Date(t.run.startedAt).toLocaleString() : 'replayed'}</td>
                    <td className="num">{t.run ? `$${t.run.costUsd.toFixed(4)}` : '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <WeightsPanel />
      <FiguresPanel />
    </section>
  );
}
