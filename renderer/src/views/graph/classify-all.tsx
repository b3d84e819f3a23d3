import { useRef, useState } from 'react';
import { useClient } from '../../api/client';
import { useChannel } from '../../api/hooks';
import { ErrorNotice } from '../../ui/error-notice';
import { PROVIDER_WORDS } from '../../ui/provider-words';

/**
 * The classify agent over a list of ideas, one after another (`ideas:classify`), with how far it has
 * come and a Stop that lets the idea in hand finish: each answer is written into that idea's README,
 * and the graph follows through the folder's change.
 */
export function ClassifyAll({ slugs, onDone }: { slugs: readonly string[]; onDone?: () => void }) {
  const client = useClient();
  const settings = useChannel('settings:get', {});
  const [done, setDone] = useState<number | null>(null);
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const stop = useRef(false);
  const provider = settings.data?.provider ?? 'simulated';

  const run = async () => {
    stop.current = false;
    setRunning(true);
    setError(null);
    setDone(0);
    try {
      for (let i = 0; i < slugs.length && !stop.current; i++) {
        await client.invoke('ideas:classify', { slug: slugs[i] as string });
        setDone(i + 1);
      }
    } catch (e) {
      setError(e);
    } finally {
      setRunning(false);
      onDone?.();
    }
  };

  return (
    <div className="stack classify-all">
      <div className="row">
        <button type="button" className="primary" onClick={() => void run()} disabled={running || slugs.length === 0}>
          {running ? 'Classifying…' : `Classify ${slugs.length === 1 ? 'the idea' : `the ${slugs.length} ideas`}`}
        </button>
        {running && (
          <button
            type="button"
            onClick={() => {
              stop.current = true;
            }}
          >
            Stop after this idea
          </button>
        )}
        {done !== null && (
          <span role="status" className="small">
            {done} of {slugs.length} classified
          </span>
        )}
      </div>
      <p className="muted small">
        The classify agent reads each idea and sets its type, tags and links to other ideas in its README’s frontmatter
        (your own links stay). It runs on {PROVIDER_WORDS[provider] ?? provider}, one call per idea; change it in
        Settings.
      </p>
      <ErrorNotice error={error} />
    </div>
  );
}
