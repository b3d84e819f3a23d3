import { useId } from 'react';
import { href } from '../router';
import { type GlossaryEntry, glossaryEntry } from './glossary';
import './help.css';

/**
 * A (?) beside a protocol term: hovering or focusing it shows the term's code and one sentence; a
 * click opens the glossary at the term. Renders nothing for a code the glossary does not know.
 */
export function Help({ term }: { term: string }) {
  const id = useId();
  const entry: GlossaryEntry | null = glossaryEntry(term);
  if (!entry) return null;
  return (
    <span className="term-help">
      <a
        href={href('glossary', { term })}
        className="term-help-mark"
        aria-label={`What “${entry.plain}” means`}
        aria-describedby={id}
        data-testid="help"
      >
        ?
      </a>
      <span role="tooltip" id={id} className="term-help-tip">
        {entry.code && <strong>{entry.code}: </strong>}
        {entry.sentence}
      </span>
    </span>
  );
}
