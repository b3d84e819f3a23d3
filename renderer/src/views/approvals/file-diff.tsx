import { useMemo, useState } from 'react';
import type { CouncilPreviewFile } from '../../../../core/contract';
import { lineDiff, withContext } from './line-diff';

const CHANGE_WORDS: Record<CouncilPreviewFile['change'], string> = {
  created: 'new file',
  modified: 'changed',
  deleted: 'removed',
  moved: 'moved',
};

/**
 * One file a proposal would change: its path, what happens to it and which actions do it, then the
 * lines before and after — as a diff with three lines of context (long unchanged stretches folded),
 * or, on request, the two whole texts side by side.
 */
export function FileDiff({ file }: { file: CouncilPreviewFile }) {
  const [whole, setWhole] = useState(false);
  const lines = useMemo(() => lineDiff(file.before, file.after), [file.before, file.after]);
  const hunks = useMemo(() => withContext(lines), [lines]);
  const added = lines.filter((l) => l.kind === 'added').length;
  const removed = lines.filter((l) => l.kind === 'removed').length;
  return (
    <section className="file-diff" data-testid="file-diff" data-path={file.path} data-change={file.change}>
      <header className="row">
        <code className="file-diff-path">{file.path}</code>
        <span className={`badge ${file.change === 'deleted' ? 'danger' : file.change === 'created' ? 'ok' : 'accent'}`}>
          {CHANGE_WORDS[file.change]}
        </span>
        {file.change === 'moved' ? (
          <span className="small">
            to <code>{file.to}</code>, its bytes unchanged
          </span>
        ) : (
          <span className="muted small">
            +{added} −{removed} line{added + removed === 1 ? '' : 's'} · action{file.actions.length === 1 ? '' : 's'}{' '}
            {file.actions.map((a) => a + 1).join(', ')}
          </span>
        )}
        {file.change !== 'moved' && (
          <button type="button" className="link small" onClick={() => setWhole((w) => !w)} aria-pressed={whole}>
            {whole ? 'Show the changes only' : 'Show both whole files'}
          </button>
        )}
      </header>
      {file.truncated && <p className="muted small">Cut to its first 100,000 characters.</p>}
      {file.change === 'moved' ? null : whole ? (
        <div className="file-diff-whole">
          <div>
            <h5>Before</h5>
            <pre data-testid="before-text">{file.before ?? '(no file)'}</pre>
          </div>
          <div>
            <h5>After</h5>
            <pre data-testid="after-text">{file.after ?? '(removed)'}</pre>
          </div>
        </div>
      ) : (
        <table className="file-diff-lines" aria-label={`Changes to ${file.path}`}>
          <colgroup>
            <col className="num-col" />
            <col className="num-col" />
            <col />
          </colgroup>
          <thead>
            <tr>
              <th>line before</th>
              <th>line after</th>
              <th>text</th>
            </tr>
          </thead>
          <tbody>
            {hunks.map((h, i) =>
              h.kind === 'skip' ? (
                // biome-ignore lint/suspicious/noArrayIndexKey: hunks are laid out in file order
                <tr key={i} className="skip">
                  <td colSpan={3}>
                    … {h.count} unchanged line{h.count === 1 ? '' : 's'}
                  </td>
                </tr>
              ) : (
                h.lines.map((l, j) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: lines are laid out in file order
                  <tr key={`${i}-${j}`} className={l.kind} data-kind={l.kind}>
                    <td className="num">{l.before ?? ''}</td>
                    <td className="num">{l.after ?? ''}</td>
                    <td>
                      <span className="mark" aria-hidden="true">
                        {l.kind === 'added' ? '+' : l.kind === 'removed' ? '−' : ' '}
                      </span>
                      {l.kind !== 'same' && <span className="visually-hidden">{l.kind}: </span>}
                      {l.text}
                    </td>
                  </tr>
                ))
              ),
            )}
          </tbody>
        </table>
      )}
    </section>
  );
}
