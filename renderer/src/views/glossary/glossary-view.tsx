import { useEffect } from 'react';
import type { Route } from '../../router';
import { GLOSSARY, type GlossaryEntry } from '../../ui/glossary';
import './glossary.css';

/**
 * Every protocol word the app shows, in plain words with its code and one sentence
 * (`#/glossary`, `?term=<id>` scrolls to one and marks it). The (?) beside a term links here.
 */
export function GlossaryView({ route }: { route: Route }) {
  const asked = route.query.get('term');
  useEffect(() => {
    if (asked) document.getElementById(`term-${asked}`)?.scrollIntoView({ block: 'center' });
  }, [asked]);
  const entries = (Object.entries(GLOSSARY) as [string, GlossaryEntry][]).sort((a, b) =>
    a[1].plain.localeCompare(b[1].plain),
  );
  return (
    <section className="view glossary-view">
      <h1>Glossary</h1>
      <p className="muted">
        The words of crux debates, evaluations and arenas. Pages show the plain words; the code in bold is what logs,
        transcripts and exports say.
      </p>
      <dl className="glossary" aria-label="Glossary">
        {entries.map(([id, e]) => (
          <div key={id} id={`term-${id}`} className={id === asked ? 'asked' : undefined} data-term={id}>
            <dt>
              {e.plain}
              {e.code && e.code !== e.plain && <code>{e.code}</code>}
            </dt>
            <dd>{e.sentence}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
