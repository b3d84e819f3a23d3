import { type FormEvent, useEffect, useRef, useState } from 'react';
import type { CaptureClassificationView, CapturePlacementView } from '../../../../core/contract';
import { useClient } from '../../api/client';
import { useAction } from '../../api/hooks';
import { href } from '../../router';
import { ErrorNotice } from '../../ui/error-notice';
import './capture-box.css';

/** What the box last did, said under it with a link to the idea. */
interface Done {
  slug: string;
  title: string;
  conflict: boolean;
  kind: 'new' | 'added' | 'held';
  inspiredBy: string | null;
}

const percent = (n: number) => `${Math.round(n * 100)}%`;
/** A title short enough for a button (the list above the buttons names each idea in full). */
const short = (title: string) => (title.length > 48 ? `${title.slice(0, 47).trimEnd()}…` : title);

/** The words of one placement's button. */
function placementLabel(p: CapturePlacementView, c: CaptureClassificationView): string {
  const title = (slug: string) => short(c.candidates.find((x) => x.slug === slug)?.title ?? slug);
  if (p.as === 'existing') return `Add to “${title(p.slug)}”`;
  if (p.as === 'inspired') return `New idea, inspired by “${title(p.slug)}”`;
  return c.duplicateOf ? 'Capture it again as a new idea' : 'New idea';
}

/** The classification in one sentence, for the choice. */
function verdict(c: CaptureClassificationView): string {
  const who = c.by === 'model' ? 'The model says' : 'By its words,';
  if (c.duplicateOf) {
    const title = c.candidates.find((x) => x.slug === c.duplicateOf)?.title ?? c.duplicateOf;
    return `This exact text was captured into “${title}” before: adding it again would add nothing.`;
  }
  const top = c.candidates[0];
  if (c.decision === 'EXISTING' && top)
    return `${who} this belongs to “${top.title}” (${percent(top.score)} of its words are there).`;
  if (c.decision === 'AMBIGUOUS') return `${who} this may belong to an idea you have, or be a new one.`;
  return top
    ? `${who} this is a new idea, close to “${top.title}” (${percent(top.score)}).`
    : `${who} this is a new idea.`;
}

/**
 * "I have an idea…": a title and some text are first classified against the library
 * (`captures:classify`): a new idea is written at once from the workspace's template; one that may
 * belong to an idea the researcher has (or is close to one) waits for the researcher's choice: add
 * it to that idea, a new idea inspired by it, or a new idea (`captures:place`). Ctrl/Cmd-Enter
 * captures from either field.
 */
export function CaptureBox({
  focus,
  onCaptured,
}: {
  /** Put the cursor in the title whenever this changes to a non-null value (the palette's "New idea"). */
  focus: string | null;
  onCaptured: (slug: string, title: string) => void;
}) {
  const client = useClient();
  const [title, setTitle] = useState('');
  const [text, setText] = useState('');
  const [done, setDone] = useState<Done | null>(null);
  /** A classification waiting for the researcher's choice, with the text it was made for. */
  const [pending, setPending] = useState<{
    classification: CaptureClassificationView;
    title: string;
    text: string;
  } | null>(null);
  const titleInput = useRef<HTMLInputElement>(null);
  const choices = useRef<HTMLFieldSetElement>(null);

  const place = useAction(async (captured: { title: string; text: string }, as: CapturePlacementView) => {
    const result = await client.invoke('captures:place', {
      title: captured.title,
      ...(captured.text.trim() ? { text: captured.text } : {}),
      as,
    });
    const shown = result.idea?.title ?? captured.title.trim();
    setDone({
      slug: result.slug,
      title: shown,
      conflict: result.conflict,
      kind: as.as === 'existing' ? (result.written ? 'added' : 'held') : 'new',
      inspiredBy: as.as === 'inspired' ? as.slug : null,
    });
    setPending(null);
    setTitle('');
    setText('');
    onCaptured(result.slug, shown);
  });

  const capture = useAction(async () => {
    const captured = { title, text };
    const { classification } = await client.invoke('captures:classify', {
      title,
      ...(text.trim() ? { text } : {}),
    });
    // Whether to ask is decided on the main side (core/capture/choice.ts `offersChoice`), not here.
    if (!classification.offersChoice) {
      await place.run(captured, { as: 'new' });
      return;
    }
    setDone(null);
    setPending({ classification, ...captured });
  });

  useEffect(() => {
    if (focus !== null) titleInput.current?.focus();
  }, [focus]);

  // The choice takes the keyboard where it appears: its first button (the likeliest) is focused.
  useEffect(() => {
    if (pending) choices.current?.querySelector('button')?.focus();
  }, [pending]);

  const busy = capture.running || place.running;
  const submit = (e?: FormEvent) => {
    e?.preventDefault();
    if (title.trim() === '' || busy) return;
    void capture.run();
  };
  const onKey = (e: React.KeyboardEvent) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) submit();
  };

  return (
    <form
      className={`card capture-box stack${title !== '' || text !== '' || pending ? ' filled' : ''}`}
      onSubmit={submit}
      aria-label="Capture an idea"
    >
      <input
        ref={titleInput}
        value={title}
        onChange={(e) => {
          setTitle(e.target.value);
          setPending(null);
        }}
        onKeyDown={onKey}
        placeholder="I have an idea… (a title)"
        aria-label="Idea title"
        maxLength={300}
      />
      <textarea
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          setPending(null);
        }}
        onKeyDown={onKey}
        placeholder="What is it, why does it matter? (markdown; optional)"
        aria-label="Idea text"
        rows={3}
      />
      {pending && (
        <fieldset className="capture-choice" aria-label="Where does it belong?" ref={choices}>
          <p className="capture-verdict">
            <span className={`capture-decision decision-${pending.classification.decision.toLowerCase()}`}>
              {pending.classification.duplicateOf ? 'Captured before' : pending.classification.decision.toLowerCase()}
            </span>{' '}
            {verdict(pending.classification)}
          </p>
          {pending.classification.candidates.length > 0 && (
            <ul className="capture-candidates small">
              {pending.classification.candidates.map((c) => (
                <li key={c.slug}>
                  <a href={href('idea', c.slug)}>{c.title}</a> <span className="muted">{percent(c.score)}</span>
                  {c.shared.length > 0 && <span className="muted"> · {c.shared.join(', ')}</span>}
                </li>
              ))}
            </ul>
          )}
          <div className="row capture-choices">
            {pending.classification.offered.map((p, i) => (
              <button
                key={`${p.as}:${'slug' in p ? p.slug : ''}`}
                type="button"
                className={i === 0 ? 'primary' : ''}
                disabled={busy}
                onClick={() => void place.run({ title: pending.title, text: pending.text }, p)}
              >
                {placementLabel(p, pending.classification)}
              </button>
            ))}
            <button type="button" className="link" disabled={busy} onClick={() => setPending(null)}>
              Cancel
            </button>
          </div>
        </fieldset>
      )}
      <div className="row">
        <button type="submit" className="primary" disabled={title.trim() === '' || busy || pending !== null}>
          {busy ? 'Capturing…' : 'Capture'}
        </button>
        <span className="muted small capture-hint">
          Ctrl/Cmd-Enter. Checked against your ideas first; a new one is written to ideas/&lt;slug&gt;/README.md.
        </span>
        {done && (
          <span role="status" className="small">
            {done.kind === 'new' ? 'Captured ' : done.kind === 'added' ? 'Added to ' : 'Already in '}
            <a href={href('idea', done.slug)}>{done.title}</a>
            {done.kind === 'held' && ': nothing was written'}
            {done.inspiredBy && (
              <>
                {', inspired by '}
                <a href={href('idea', done.inspiredBy)}>{done.inspiredBy}</a>
              </>
            )}
            {done.conflict &&
              (done.kind === 'added'
                ? ' (its README changed meanwhile: it is kept, and the version with your text is beside it)'
                : ' (a folder of that name changed meanwhile: the app’s copy was kept beside it)')}
          </span>
        )}
      </div>
      <ErrorNotice
        error={capture.error ?? place.error}
        onDismiss={() => (capture.error ? capture.clearError() : place.clearError())}
      />
    </form>
  );
}
