import { useState } from 'react';
import type { IdeaDetail } from '../../../../core/contract';
import { useChannel } from '../../api/hooks';
import { ErrorNotice } from '../../ui/error-notice';
import { Markdown, splitFrontmatter } from '../../ui/markdown';

type IdeaFile = IdeaDetail['files'][number];

const GROUPS: { kinds: IdeaFile['kind'][]; title: string }[] = [
  { kinds: ['research'], title: 'Research' },
  { kinds: ['note'], title: 'Notes' },
  { kinds: ['asset'], title: 'Assets' },
  { kinds: ['synthesis', 'evaluation', 'redteam', 'debate'], title: 'The app’s documents' },
  { kinds: ['conflict'], title: 'Conflict copies (the app’s version beside one you edited)' },
  { kinds: ['other'], title: 'Other files' },
];

/**
 * The records the app keeps for its runs: a debate's log (`debates/<id>.jsonl`) and its map's
 * layout (`debates/<id>.layout.json`), an evaluation's run log (`evaluations/<id>.run.jsonl`),
 * replay script (`evaluations/<id>.jsonl`) and locked record (`evaluations/<id>.json`). They are
 * read through the debate and evaluation views, never as files, so the list leaves them out (and
 * says how many).
 */
const INTERNAL = /^ideas\/[^/]+\/(debates|evaluations)\/[^/]+\.(jsonl|json)$/;
const TEXT = /\.(md|markdown|txt)$/i;

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** One text file, read when opened and rendered (frontmatter shown apart, as plain text). */
function FileText({ slug, path, reloadKey }: { slug: string; path: string; reloadKey: number }) {
  const file = useChannel('ideas:file', { slug, path }, `${path}/${reloadKey}`);
  if (file.error) return <ErrorNotice error={file.error} />;
  if (!file.data) return <p className="muted">Loading…</p>;
  const { frontmatter, body } = splitFrontmatter(file.data.text);
  return (
    <div className="file-text">
      {frontmatter && <pre className="frontmatter">{frontmatter}</pre>}
      {/\.txt$/i.test(path) ? <pre className="plain">{body}</pre> : <Markdown text={body} />}
      {file.data.truncated && <p className="muted small">Only the first 512 KB are shown.</p>}
    </div>
  );
}

/** Research, notes, assets and the rest of the idea's folder; text files open in place. */
export function IdeaFiles({ slug, files, reloadKey }: { slug: string; files: IdeaFile[]; reloadKey: number }) {
  const [open, setOpen] = useState<Set<string>>(new Set());
  const toggle = (path: string) =>
    setOpen((o) => {
      const next = new Set(o);
      if (next.has(path)) next.delete(path);
      else next.add(path);
      return next;
    });
  const shown = files.filter((f) => !INTERNAL.test(f.path));
  const hidden = files.length - shown.length;
  const groups = GROUPS.map((g) => ({ ...g, files: shown.filter((f) => g.kinds.includes(f.kind)) })).filter(
    (g) => g.files.length > 0,
  );
  return (
    <section className="card stack" aria-labelledby="files-title">
      <h2 id="files-title">Research and notes</h2>
      {groups.length === 0 && (
        <p className="muted">Nothing beside the README yet. Drop files on this page to attach them.</p>
      )}
      {groups.map((g) => (
        <div key={g.title}>
          <h3>{g.title}</h3>
          <ul className="file-list">
            {g.files.map((f) => {
              const name = f.path.split('/').slice(2).join('/');
              const readable = TEXT.test(f.path);
              return (
                <li key={f.path}>
                  {readable ? (
                    <button
                      type="button"
                      className="link"
                      aria-expanded={open.has(f.path)}
                      onClick={() => toggle(f.path)}
                    >
                      {open.has(f.path) ? '▾' : '▸'} {name}
                    </button>
                  ) : (
                    <span>{name}</span>
                  )}{' '}
                  <span className="muted small">{size(f.size)}</span>
                  {open.has(f.path) && <FileText slug={slug} path={f.path} reloadKey={reloadKey} />}
                </li>
              );
            })}
          </ul>
        </div>
      ))}
      {hidden > 0 && (
        <p className="muted small" data-testid="internal-files">
          Not listed: {hidden} {hidden === 1 ? 'record' : 'records'} the app keeps for its debates and evaluations (logs
          and layouts), read through the debate and evaluation views.
        </p>
      )}
    </section>
  );
}
