import { useState } from 'react';
import { useChannel, usePush } from '../../api/hooks';
import { href } from '../../router';
import { ErrorNotice } from '../../ui/error-notice';
import { Help } from '../../ui/help';
import { money, statusBadge, when } from '../debate/format';
import { StartArenaForm } from './start-arena-form';
import './arena.css';

/**
 * Arenas about one idea (on its page) or every arena (`#/arena`, `slug` null): each with its status,
 * date, cost and a link to its view, and "Start an arena". Follows `run:status`.
 */
export function ArenasPanel({ slug, startOpen = false }: { slug: string | null; startOpen?: boolean }) {
  const list = useChannel('runs:list', { protocol: 'arena' });
  const [starting, setStarting] = useState(startOpen);
  usePush('run:status', (p) => {
    if (p.protocol === 'arena') list.reload();
  });
  const arenas = (list.data?.runs ?? []).filter((r) => slug === null || r.ideaSlug === slug);
  return (
    <section className="arenas-panel card stack" aria-label="Arenas" data-testid="arenas-panel">
      <div className="row" style={{ justifyContent: 'space-between' }}>
        <h2 style={{ margin: 0 }}>
          Arenas
          <Help term="arena" />
        </h2>
        {!starting && (
          <button type="button" className="primary" data-action="arena" onClick={() => setStarting(true)}>
            Start an arena
          </button>
        )}
      </div>
      {starting && <StartArenaForm ideaSlug={slug} onCancel={() => setStarting(false)} />}
      <ErrorNotice error={list.error} />
      {list.data && arenas.length === 0 && (
        <p className="muted">{slug === null ? 'No arena yet.' : 'No arena about this idea yet.'}</p>
      )}
      {arenas.length > 0 && (
        <table className="data" aria-label="Arenas">
          <thead>
            <tr>
              <th>Started</th>
              {slug === null && <th>Question</th>}
              <th>Status</th>
              <th className="num">Cost</th>
            </tr>
          </thead>
          <tbody>
            {arenas.map((r) => {
              const badge = statusBadge(r.status, r.live, 'run');
              return (
                <tr key={r.id} data-testid="arena-row">
                  <td>
                    <a href={href('arena', r.id)}>{when(r.startedAt)}</a>
                    {r.provider === 'simulated' && <span className="muted small"> · simulated</span>}
                  </td>
                  {slug === null && (
                    <td>
                      {r.topic}
                      {r.ideaSlug && (
                        <>
                          {' '}
                          <a className="small" href={href('idea', r.ideaSlug)}>
                            (the idea)
                          </a>
                        </>
                      )}
                    </td>
                  )}
                  <td>
                    <span className={`badge ${badge.tone}`}>{badge.label}</span>
                  </td>
                  <td className="num">{money(r.costUsd)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}
