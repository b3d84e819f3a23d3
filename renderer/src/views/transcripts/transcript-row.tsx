import { memo } from 'react';
import type { TranscriptMessage } from '../../../../core/contract';
import { seriesColor } from '../debate/format';
import { highlight } from './highlight';

/** Every row is this tall: a fixed height lets the list place row 9,000 without measuring 8,999. */
export const ROW_HEIGHT = 92;
/** Content longer than this (or on several lines) is clamped in the row and offered in full on demand. */
const LONG = 220;

export function isLong(m: TranscriptMessage): boolean {
  return m.content.length > LONG || m.content.includes('\n');
}

interface Props {
  message: TranscriptMessage;
  agentName: string | null;
  agentIndex: number;
  target: boolean;
  match: boolean;
  words: readonly string[];
  copied: boolean;
  onExpand: (index: number) => void;
  onCopy: (index: number) => void;
}

/** One message of a transcript, in one fixed-height row. */
export const TranscriptRow = memo(function TranscriptRow(p: Props) {
  const m = p.message;
  const color = m.agent ? seriesColor(p.agentIndex) : undefined;
  return (
    <article
      className={`transcript-row ${m.kind} ${p.target ? 'target' : ''} ${p.match ? 'match' : ''}`}
      aria-label={`Message ${m.index}`}
      data-index={m.index}
      aria-current={p.target ? 'true' : undefined}
    >
      <header>
        <span className="muted small num">#{m.index}</span>
        <span className="muted small">{m.id}</span>
        <span className="muted small">{m.thread}</span>
        <strong style={{ color }}>{m.kind === 'moderator' ? 'Moderator' : p.agentName}</strong>
        {m.move && <span className="badge">{m.move}</span>}
        {m.kind === 'blocked' && <span className="badge danger">blocked: {m.reason}</span>}
        {m.intervention && <span className="badge accent">{m.intervention}</span>}
        {m.replyTo && <span className="muted small">↩ {m.replyTo}</span>}
        <span className="row-actions">
          {isLong(m) && (
            <button type="button" className="link small" onClick={() => p.onExpand(m.index)}>
              Read all
            </button>
          )}
          <button
            type="button"
            className="link small"
            onClick={() => p.onCopy(m.index)}
            aria-label={`Copy a link to message ${m.index}`}
          >
            {p.copied ? 'Link copied' : 'Copy link'}
          </button>
        </span>
      </header>
      <p className="transcript-content">{highlight(m.content, p.words)}</p>
    </article>
  );
});
