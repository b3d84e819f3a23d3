import { useMemo, useRef, useState } from 'react';
import type { DevelopmentView } from '../../../../core/contract';
import { useClient } from '../../api/client';
import { useAction, useChannel } from '../../api/hooks';
import { useCommands } from '../../commands';
import { ErrorNotice } from '../../ui/error-notice';
import { PROVIDER_WORDS } from '../../ui/provider-words';
import { actionCommands } from './page-actions';

/**
 * Develop (Q&A): the development agent looks for what the idea is missing (empty README sections,
 * criteria without a sure score) and asks about it; the questions and the researcher's answers live
 * in the idea's development.md, which the evaluation reads.
 */
export function DevelopmentSection({ slug, reloadKey }: { slug: string; reloadKey: number }) {
  const client = useClient();
  const loaded = useChannel('ideas:questions', { slug }, `${slug}/${reloadKey}`);
  const settings = useChannel('settings:get', {});
  const [view, setView] = useState<DevelopmentView | null>(null);
  const [drafts, setDrafts] = useState<Record<number, string>>({});
  const shown = view ?? loaded.data;

  const [note, setNote] = useState<string | null>(null);
  // Set when the researcher cancels, so that the call's failure reads as what it is, not as an error.
  const cancelled = useRef(false);
  const develop = useAction(async () => {
    cancelled.current = false;
    setNote(null);
    try {
      setView(await client.invoke('ideas:develop', { slug }));
    } catch (error) {
      if (!cancelled.current) throw error;
      setNote('Cancelled: nothing was asked or written.');
    }
  });
  const cancel = useAction(async () => {
    cancelled.current = true;
    await client.invoke('ideas:developCancel', { slug });
  });
  const answer = useAction(async (n: number) => {
    const next = await client.invoke('ideas:answer', { slug, number: n, text: drafts[n] ?? '' });
    setView(next);
    setDrafts(({ [n]: _, ...rest }) => rest);
  });

  // Its buttons as palette entries too (./page-actions.ts); Cancel only while the agent asks.
  const commands = useMemo(
    () =>
      actionCommands(slug, [
        {
          id: 'develop-ask',
          label: 'Ask what is missing',
          palette: 'Ask what this idea is missing (development questions)',
          keywords: 'develop questions qa missing ask agent',
          run: () => void develop.run(),
        },
        ...(develop.running
          ? [
              {
                id: 'develop-cancel',
                label: 'Cancel',
                palette: 'Cancel the development questions being asked',
                keywords: 'develop cancel stop',
                run: () => void cancel.run(),
              },
            ]
          : []),
      ]),
    [slug, develop.run, develop.running, cancel.run],
  );
  useCommands(`development-section:${slug}`, commands);

  const open = shown?.questions.filter((q) => q.answer === null).length ?? 0;
  const provider = settings.data?.provider ?? 'simulated';

  return (
    <section className="card stack" id="develop" aria-labelledby="develop-title">
      <div className="row">
        <h2 id="develop-title" className="grow">
          Develop (Q&amp;A)
        </h2>
        <button
          id="develop-ask"
          data-action="develop-ask"
          type="button"
          className="primary"
          onClick={() => void develop.run()}
          disabled={develop.running}
        >
          {develop.running ? 'Asking…' : 'Ask what is missing'}
        </button>
        {develop.running && (
          <button
            id="develop-cancel"
            data-action="develop-cancel"
            type="button"
            onClick={() => void cancel.run()}
            disabled={cancel.running}
          >
            Cancel
          </button>
        )}
      </div>
      <p className="muted small">
        Questions come from {PROVIDER_WORDS[provider] ?? provider} (change it in Settings) and are kept in
        development.md.
        {shown && shown.questions.length > 0 && ` ${open} of ${shown.questions.length} unanswered.`}
      </p>
      {shown?.conflict && (
        <p className="badge warn">development.md changed meanwhile: yours is kept; the app’s version is {shown.path}</p>
      )}
      {develop.running && (
        <div className="progress indeterminate" role="progressbar" aria-label="Asking the development agent">
          <div />
        </div>
      )}
      {note && (
        <p className="muted" role="status">
          {note}
        </p>
      )}
      <ErrorNotice
        error={develop.error ?? cancel.error ?? loaded.error}
        onDismiss={() => {
          develop.clearError();
          cancel.clearError();
        }}
      />
      <ErrorNotice error={answer.error} onDismiss={answer.clearError} />
      {shown?.questions.length === 0 && <p className="muted">No questions yet.</p>}
      <ol className="qa-list">
        {shown?.questions.map((q) => (
          <li key={q.number} className={shown.added.includes(q.number) ? 'fresh' : undefined}>
            <div>
              <strong>{q.question}</strong>
              {q.gap && <span className="muted small"> — {q.gap}</span>}
            </div>
            {q.answer !== null ? (
              <p className="qa-answer">{q.answer}</p>
            ) : (
              <div className="row">
                <textarea
                  rows={2}
                  value={drafts[q.number] ?? ''}
                  onChange={(e) => setDrafts((d) => ({ ...d, [q.number]: e.target.value }))}
                  aria-label={`Answer to question ${q.number}`}
                  placeholder="Your answer…"
                  className="grow"
                />
                <button
                  type="button"
                  onClick={() => void answer.run(q.number)}
                  disabled={answer.running || !(drafts[q.number] ?? '').trim()}
                >
                  Save answer
                </button>
              </div>
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}
