import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useClient } from '../../api/client';
import { useAction } from '../../api/hooks';
import { href } from '../../router';
import { ErrorNotice } from '../../ui/error-notice';

/**
 * "I have an idea…": a title and some text become `ideas/<slug>/README.md` from the workspace's
 * template (type research, stage SPARK). Ctrl/Cmd-Enter captures from either field.
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
  const [done, setDone] = useState<{ slug: string; title: string; conflict: boolean } | null>(null);
  const titleInput = useRef<HTMLInputElement>(null);
  const capture = useAction(async () => {
    const result = await client.invoke('ideas:capture', { title, ...(text.trim() ? { text } : {}) });
    const shown = result.idea?.title ?? title.trim();
    setDone({ slug: result.slug, title: shown, conflict: result.conflict });
    setTitle('');
    setText('');
    onCaptured(result.slug, shown);
  });

  useEffect(() => {
    if (focus !== null) titleInput.current?.focus();
  }, [focus]);

  const submit = (e?: FormEvent) => {
    e?.preventDefault();
    if (title.trim() === '' || capture.running) return;
    void capture.run();
  };
  const onKey = (e: React.KeyboardEvent) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) submit();
  };

  return (
    <form
      className={`card capture-box stack${title !== '' || text !== '' ? ' filled' : ''}`}
      onSubmit={submit}
      aria-label="Capture an idea"
    >
      <input
        ref={titleInput}
        value={title}
        onChange={(e) => setTitle(e.target.value)}
        onKeyDown={onKey}
        placeholder="I have an idea… (a title)"
        aria-label="Idea title"
        maxLength={300}
      />
      <textarea
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKey}
        placeholder="What is it, why does it matter? (markdown; optional)"
        aria-label="Idea text"
        rows={3}
      />
      <div className="row">
        <button type="submit" className="primary" disabled={title.trim() === '' || capture.running}>
          {capture.running ? 'Capturing…' : 'Capture'}
        </button>
        <span className="muted small capture-hint">Ctrl/Cmd-Enter. Written to ideas/&lt;slug&gt;/README.md.</span>
        {done && (
          <span role="status" className="small">
            Captured <a href={href('idea', done.slug)}>{done.title}</a>
            {done.conflict && ' (a folder of that name changed meanwhile: the app’s copy was kept beside it)'}
          </span>
        )}
      </div>
      <ErrorNotice error={capture.error} onDismiss={capture.clearError} />
    </form>
  );
}
