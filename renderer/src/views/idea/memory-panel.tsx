import { useState } from 'react';
import type { MemoryEpisodeView } from '../../../../core/contract';
import { useChannel, usePush } from '../../api/hooks';
import { href } from '../../router';
import { ErrorNotice } from '../../ui/error-notice';
import { when } from '../debate/format';

/** Episodes shown at first; the rest one click away (an idea debated daily has many). */
const FIRST = 5;
/** Lessons shown per episode, and how long a line may run before it is cut. */
const LESSONS = 3;
const LINE = 280;

const cut = (text: string, max = LINE) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

const PROTOCOL_WORDS: Record<string, string> = {
  crux: 'crux debate',
  evaluation: 'evaluation',
  arena: 'arena',
  council: 'council task',
};

/** Where the run an episode came from is shown, for the protocols that have a page of their own. */
function runLink(e: MemoryEpisodeView): string | null {
  switch (e.protocol) {
    case 'crux':
      return href('debate', e.runId);
    case 'evaluation':
      return href('evaluation', e.runId);
    case 'arena':
      return href('arena', e.runId);
    case 'council':
      return href('council', e.runId);
    default:
      return null;
  }
}

/**
 * The idea page's memory: what earlier runs about this idea left in the workspace's shared memory
 * (`council/memory/episodes.jsonl`), newest first — each run's protocol, how it ended and its
 * lessons, as the next run's brief will read them.
 */
export function MemoryPanel({ slug }: { slug: string }) {
  const [all, setAll] = useState(false);
  const memory = useChannel('memory:list', all ? { idea: slug } : { idea: slug, limit: FIRST });
  // An episode is written when a run finishes.
  usePush('run:status', (r) => {
    if (['completed', 'partial'].includes(r.status)) memory.reload();
  });
  const episodes = memory.data?.episodes ?? [];
  const total = memory.data?.total ?? 0;
  return (
    <section className="card stack memory-panel" aria-label="Memory" data-testid="memory-panel">
      <h2 style={{ margin: 0 }}>Memory</h2>
      <p className="muted small">
        What finished debates, evaluations, arenas and council tasks about this idea learned, newest first. Every new
        run on the idea is briefed with these first.
      </p>
      <ErrorNotice error={memory.error} />
      {memory.data && total === 0 && <p className="muted">No run about this idea has finished yet.</p>}
      {episodes.length > 0 && (
        <ol className="memory-episodes">
          {episodes.map((e) => {
            const link = runLink(e);
            const title = `${PROTOCOL_WORDS[e.protocol] ?? e.protocol} · ${when(e.at)}`;
            return (
              <li key={e.key} data-testid="memory-episode" data-key={e.key}>
                <div className="row">
                  {link ? <a href={link}>{title}</a> : <span>{title}</span>}
                  <span className="muted small" title={e.task}>
                    {cut(e.task, 120)}
                  </span>
                </div>
                <p className="memory-outcome">
                  <strong>Outcome:</strong>{' '}
                  {e.outcome.trim() ? cut(e.outcome) : <span className="muted">none said</span>}
                </p>
                {e.keyLearnings.length > 0 && (
                  <ul className="memory-lessons">
                    {e.keyLearnings.slice(0, LESSONS).map((l, i) => (
                      // biome-ignore lint/suspicious/noArrayIndexKey: an episode's lessons never change order
                      <li key={i}>{cut(l)}</li>
                    ))}
                    {e.keyLearnings.length > LESSONS && (
                      <li className="muted small">and {e.keyLearnings.length - LESSONS} more</li>
                    )}
                  </ul>
                )}
              </li>
            );
          })}
        </ol>
      )}
      {!all && total > episodes.length && (
        <button type="button" onClick={() => setAll(true)}>
          Show all {total} episodes
        </button>
      )}
      {memory.data && memory.data.problems.length > 0 && (
        <p className="muted small">
          {memory.data.problems.length} line(s) of {memory.data.problems[0]?.file} could not be read and are left out.
        </p>
      )}
    </section>
  );
}
