import { useRef, useState } from 'react';
import type { ChannelOutput } from '../../../../core/contract';
import { useClient } from '../../api/client';
import { useAction, useChannel, usePush } from '../../api/hooks';
import { href, type Route } from '../../router';
import { ErrorNotice } from '../../ui/error-notice';
import './export.css';

type Source = 'synthesis' | 'transcript';
type Format = 'md' | 'html' | 'pdf';
const FORMATS: { id: Format; label: string; hint: string }[] = [
  { id: 'md', label: 'Markdown', hint: 'the file as the app keeps it' },
  { id: 'html', label: 'HTML', hint: 'one self-contained page (styles inside, nothing fetched)' },
  { id: 'pdf', label: 'PDF', hint: 'printed by headless Chromium (A4), a few seconds' },
];

/** Hands a file to the browser's download (in the desktop app, its save dialog). */
function download(result: ChannelOutput<'export:document'>): void {
  const body =
    result.encoding === 'base64' ? Uint8Array.from(atob(result.content), (c) => c.charCodeAt(0)) : result.content;
  const url = URL.createObjectURL(new Blob([body], { type: result.mimeType }));
  const link = document.createElement('a');
  link.href = url;
  link.download = result.fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * Export: an idea's synthesis or a debate's transcript as Markdown, HTML or PDF, saved where the
 * researcher chooses (a download). `#/export?source=synthesis&id=<slug>` comes preselected.
 */
export function ExportView({ route }: { route: Route }) {
  const client = useClient();
  const ideas = useChannel('ideas:list', {});
  const debates = useChannel('debates:list', {});
  // What can be exported changes when an evaluation locks, here or in another process (the
  // folder's watcher reports it): the list follows, so a fresh synthesis is offered at once.
  usePush('sync:changed', () => ideas.reload());
  usePush('run:status', (p) => {
    if (p.protocol === 'evaluation') ideas.reload();
  });
  const [source, setSource] = useState<Source>(route.query.get('source') === 'transcript' ? 'transcript' : 'synthesis');
  const [id, setId] = useState(route.query.get('id') ?? '');
  const [format, setFormat] = useState<Format>(
    (['md', 'html', 'pdf'] as const).find((f) => f === route.query.get('format')) ?? 'pdf',
  );
  const [done, setDone] = useState<{ fileName: string; bytes: number }[]>([]);
  // Cancelling a running export stops its printing on the main side (`export:cancel`); the page
  // stops waiting at once and ignores whatever answer comes back.
  const ticket = useRef(0);
  const request = useRef<{ source: Source; id: string; format: Format } | null>(null);
  const [started, setStarted] = useState<number | null>(null);
  const [cancelled, setCancelled] = useState(false);

  const run = useAction(async () => {
    const mine = ++ticket.current;
    const asked = { source, id, format };
    request.current = asked;
    setStarted(Date.now());
    setCancelled(false);
    try {
      const result = await client.invoke('export:document', asked);
      if (mine !== ticket.current) return;
      download(result);
      setDone((d) => [{ fileName: result.fileName, bytes: result.bytes }, ...d].slice(0, 10));
    } catch (error) {
      if (mine !== ticket.current) return; // cancelled: its failure is expected and not shown
      throw error;
    } finally {
      if (mine === ticket.current) setStarted(null);
    }
  });
  const cancel = () => {
    ticket.current++;
    setStarted(null);
    setCancelled(true);
    const asked = request.current;
    if (asked) void client.invoke('export:cancel', asked).catch(() => {});
  };

  // Only evaluated ideas have a synthesis: the others are counted, not offered (exporting one failed).
  const evaluated = (ideas.data?.ideas ?? []).filter((i) => i.evaluatedAt !== null);
  const others = (ideas.data?.ideas ?? []).filter((i) => i.evaluatedAt === null);
  // Named, not refused: the list can lag an evaluation another process has just locked, and the
  // main side is the judge of whether a synthesis exists.
  const unexportable = source === 'synthesis' ? others.find((i) => i.slug === id) : undefined;
  const running = run.running && started !== null;

  return (
    <section className="view export">
      <h1>Export</h1>
      <form
        className="card stack export-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (id) void run.run();
        }}
      >
        <fieldset className="row plain">
          <legend>What</legend>
          <label>
            <input
              type="radio"
              name="source"
              checked={source === 'synthesis'}
              onChange={() => {
                setSource('synthesis');
                setId('');
              }}
            />
            The synthesis of an idea
          </label>
          <label>
            <input
              type="radio"
              name="source"
              checked={source === 'transcript'}
              onChange={() => {
                setSource('transcript');
                setId('');
              }}
            />
            The transcript of a debate
          </label>
        </fieldset>
        {source === 'synthesis' ? (
          <>
            <label>
              Idea
              <select value={unexportable ? '' : id} onChange={(e) => setId(e.target.value)} aria-label="Idea">
                <option value="">{evaluated.length === 0 ? 'No idea is evaluated yet' : 'Choose an idea…'}</option>
                {evaluated.map((i) => (
                  <option key={i.slug} value={i.slug}>
                    {i.title}
                    {i.stale ? ' (stale)' : ''}
                  </option>
                ))}
              </select>
            </label>
            {unexportable ? (
              <p className="small" role="status" data-testid="not-exportable">
                “{unexportable.title}” has no synthesis yet: <a href={href('idea', unexportable.slug)}>evaluate it</a>{' '}
                first.
              </p>
            ) : (
              others.length > 0 && (
                <p className="muted small" data-testid="not-exportable">
                  {others.length} {others.length === 1 ? 'idea is' : 'ideas are'} not evaluated yet and have no
                  synthesis to export.
                </p>
              )
            )}
          </>
        ) : (
          <label>
            Debate
            <select value={id} onChange={(e) => setId(e.target.value)} aria-label="Debate">
              <option value="">Choose a debate…</option>
              {(debates.data?.debates ?? []).map((d) => (
                <option key={d.id} value={d.id}>
                  {d.createdAt.slice(0, 16).replace('T', ' ')} · {d.topic.slice(0, 80)} ({d.status})
                </option>
              ))}
            </select>
          </label>
        )}
        <fieldset className="stack plain">
          <legend>Format</legend>
          {FORMATS.map((f) => (
            <label key={f.id}>
              <input type="radio" name="format" checked={format === f.id} onChange={() => setFormat(f.id)} />
              {f.label} <span className="muted small">— {f.hint}</span>
            </label>
          ))}
        </fieldset>
        <div className="row">
          <button type="submit" className="primary" disabled={!id || running}>
            {running ? 'Exporting…' : 'Export and download'}
          </button>
          {running && (
            <button type="button" onClick={cancel}>
              Cancel
            </button>
          )}
        </div>
        {running && (
          <div className="stack">
            <div className="progress indeterminate" role="progressbar" aria-label="Exporting">
              <div />
            </div>
            <span className="muted small">
              {format === 'pdf' ? 'Printing the PDF in headless Chromium…' : 'Preparing the file…'}
            </span>
          </div>
        )}
        {cancelled && !running && (
          <p className="muted small" role="status">
            Cancelled: nothing was exported.
          </p>
        )}
        <ErrorNotice error={run.error} onDismiss={run.clearError} />
        <ErrorNotice error={ideas.error ?? debates.error} />
      </form>
      {done.length > 0 && (
        <section className="card" aria-labelledby="exported">
          <h2 id="exported">Exported in this session</h2>
          <ul>
            {done.map((d, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the same file may be exported twice
              <li key={`${d.fileName}/${i}`}>
                {d.fileName} <span className="muted small">({d.bytes.toLocaleString()} bytes)</span>
              </li>
            ))}
          </ul>
        </section>
      )}
    </section>
  );
}
