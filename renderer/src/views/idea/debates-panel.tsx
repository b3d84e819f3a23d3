import { useState } from 'react';
import { useChannel, usePush } from '../../api/hooks';
import { href } from '../../router';
import { ErrorNotice } from '../../ui/error-notice';
import { money, statusBadge, when } from '../debate/format';
import { StartDebateForm } from '../debate/start-debate-form';

/**
 * The idea page's crux debates: each debate about the idea (status, date, cost, links to its live
 * view, crux map and transcript) and "Start a crux debate".
 */
export function DebatesPanel({ slug }: { slug: string }) {
  const list = useChannel('debates:list', { ideaSlug: slug });
  const [starting, setStarting] = useState(false);
  usePush('run:status', (p) => {
    if (p.protocol === 'crux') list.reload();
  });
  const debates = list.data?.debates ?? [];
  return (
    <section className="debates-panel card stack" aria-label="Crux debates">
      <div className="row" style={{ justifyContent: 'space-between' }}>
        <h2 style={{ margin: 0 }}>Crux debates</h2>
        {!starting && (
          <button type="button" className="primary" data-action="debate" onClick={() => setStarting(true)}>
            Start a crux debate
          </button>
        )}
      </div>
      {starting && <StartDebateForm ideaSlug={slug} onCancel={() => setStarting(false)} />}
      <ErrorNotice error={list.error} />
      {list.data && debates.length === 0 && <p className="muted">No debate about this idea yet.</p>}
      {debates.length > 0 && (
        <table className="data">
          <thead>
            <tr>
              <th>Started</th>
              <th>Status</th>
              <th className="num">Cost</th>
              <th>Open</th>
            </tr>
          </thead>
          <tbody>
            {debates.map((d) => {
              const badge = statusBadge(d.status, d.live);
              return (
                <tr key={d.id}>
                  <td>
                    <a href={href('debate', d.id)}>{when(d.createdAt)}</a>
                    {d.provider === 'simulated' && <span className="muted small"> · simulated</span>}
                  </td>
                  <td>
                    <span className={`badge ${badge.tone}`}>{badge.label}</span>
                  </td>
                  <td className="num">{money(d.costUsd)}</td>
                  <td className="row">
                    <a href={href('debate', d.id)}>{d.live ? 'live view' : 'columns'}</a>
                    <a href={href('crux-map', d.id)}>crux map</a>
                    <a href={href('transcript', 'debate', d.id)}>transcript</a>
                    <a href={href('convergence', 'debate', d.id)}>DCG</a>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}
