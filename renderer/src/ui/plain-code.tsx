import { plainWords } from './glossary';
import { Help } from './help';

/**
 * A protocol code as a badge in plain words ("fixing the crux", not CRUX_LOCK): the code itself in
 * its tooltip and `data-code`, and a (?) to the glossary beside it.
 */
export function PlainCode({ code, tone = '', testId }: { code: string; tone?: string; testId?: string }) {
  return (
    <span className="plain-code">
      <span className={`badge ${tone}`.trim()} data-code={code} title={code} data-testid={testId}>
        {plainWords(code)}
      </span>
      <Help term={code} />
    </span>
  );
}
