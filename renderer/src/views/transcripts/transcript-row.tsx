import { memo } from 'react';
import { type EvaluationEntry, evaluationEntryMove, type TranscriptMessage } from '../../../../core/contract';
import { plainWords } from '../../ui/glossary';
import { Help } from '../../ui/help';
import { PlainCode } from '../../ui/plain-code';
import { entryParts, type Part } from '../evaluation/entry-words';
import { entryText } from './entry-search';
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
  /** The speaker's colour, told apart from the others of this transcript (personaColours). */
  agentColour: string | undefined;
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
  const color = p.agentColour;
  return (
    <article
      className={`transcript-row ${m.kind} ${p.target ? 'target' : ''} ${p.match ? 'match' : ''}`}
      aria-label={`Message ${m.id}`}
      data-index={m.index}
      data-id={m.id}
      aria-current={p.target ? 'true' : undefined}
    >
      <header>
        {/* A message is named by its id here as in its link (?m=m25), the debate view and the crux map. */}
        <span className="muted small num">{m.id}</span>
        <span className="muted small">{m.thread}</span>
        <strong style={{ color }}>{m.kind === 'moderator' ? 'Moderator' : p.agentName}</strong>
        {m.move && <span className="badge">{m.move}</span>}
        {m.kind === 'blocked' &&
          (m.reason ? <PlainCode code={m.reason} tone="danger" /> : <span className="badge danger">refused</span>)}
        {m.intervention && <PlainCode code={m.intervention} tone="accent" testId="intervention" />}
        {m.replyTo && <span className="muted small">↩ {m.replyTo}</span>}
        <RowActions
          long={isLong(m)}
          what={`message ${m.id}`}
          copied={p.copied}
          onExpand={() => p.onExpand(m.index)}
          onCopy={() => p.onCopy(m.index)}
        />
      </header>
      <p className="transcript-content">{highlight(m.content, p.words)}</p>
    </article>
  );
});

/** An entry's parts with the find's words marked: codes as words (the code on hover) with a (?). */
function Said({ parts, words }: { parts: Part[]; words: readonly string[] }) {
  return (
    <>
      {parts.map((p, i) =>
        typeof p === 'string' ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one line, in order, never reordered
          <span key={i}>{highlight(p, words)}</span>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: as above
          <span key={i} className="eval-term">
            <span title={p.code} data-code={p.code}>
              {highlight(plainWords(p.term), words)}
            </span>
            <Help term={p.term} />
          </span>
        ),
      )}
    </>
  );
}

export function isLongEntry(e: EvaluationEntry): boolean {
  return entryText(e).length > LONG || e.text.includes('\n');
}

const WINNER_WORDS = { EVALUATOR: 'evaluator wins', RED_TEAM: 'red team wins', DRAW: 'draw' } as const;
const COLUMN_WORDS = { evaluators: 'evaluators', transcript: 'protocol', redteam: 'red team' } as const;

interface EntryProps {
  entry: EvaluationEntry;
  agentName: string | null;
  agentColour: string | undefined;
  target: boolean;
  match: boolean;
  words: readonly string[];
  copied: boolean;
  onExpand: (index: number) => void;
  onCopy: (index: number) => void;
}

/**
 * One entry of an evaluation's transcript, in the same fixed-height row as a debate message: who
 * speaks (evaluator, red-teamer, arbiter, synthesis; none for the protocol's notes), the kind of
 * entry, the round, severity, the ruling's winner and the score it moved, then the title (which
 * names the criterion) and the text.
 */
export const EntryRow = memo(function EntryRow(p: EntryProps) {
  const e = p.entry;
  const kind = evaluationEntryMove(e.type);
  const color = p.agentColour;
  const moved = e.scoreBefore !== null && e.scoreAfter !== null;
  // Phases, lock reasons and nucleation in words; the log keeps its codes (they are in the tooltips).
  const said = entryParts(e);
  return (
    <article
      className={`transcript-row eval-entry ${kind === 'PROTOCOL' ? 'moderator' : ''} ${e.dropped ? 'dropped' : ''} ${p.target ? 'target' : ''} ${p.match ? 'match' : ''}`}
      aria-label={`Entry ${e.seq}`}
      data-index={e.seq}
      data-type={e.type}
      aria-current={p.target ? 'true' : undefined}
    >
      <header>
        <span className="muted small num">#{e.seq}</span>
        {e.round !== null && <span className="muted small">R{e.round}</span>}
        <span className="muted small">{COLUMN_WORDS[e.column]}</span>
        <strong style={{ color }}>{p.agentName ?? 'Protocol'}</strong>
        <span className="badge">{kind}</span>
        {e.severity && (
          <span className={`badge${e.severity === 'CRITICAL' ? ' danger' : e.severity === 'MAJOR' ? ' warn' : ''}`}>
            {e.severity}
          </span>
        )}
        {e.winner && <span className="badge accent">{WINNER_WORDS[e.winner]}</span>}
        {moved && (
          <span className="small num" data-testid="score-move">
            {e.scoreBefore} → {e.scoreAfter}
          </span>
        )}
        {e.dropped && <span className="badge">dropped: {e.dropped.replace('_', ' ')}</span>}
        <RowActions
          long={isLongEntry(e)}
          what={`entry ${e.seq}`}
          copied={p.copied}
          onExpand={() => p.onExpand(e.seq)}
          onCopy={() => p.onCopy(e.seq)}
        />
      </header>
      <p className="transcript-content">
        <strong>
          <Said parts={said.title} words={p.words} />
        </strong>
        {said.text.length > 0 && (
          <>
            : <Said parts={said.text} words={p.words} />
          </>
        )}
      </p>
    </article>
  );
});

/** A row's own actions: read a clamped text in full, and copy the row's link. */
function RowActions(p: { long: boolean; what: string; copied: boolean; onExpand: () => void; onCopy: () => void }) {
  return (
    <span className="row-actions">
      {p.long && (
        <button type="button" className="link small" onClick={p.onExpand}>
          Read all
        </button>
      )}
      {/* The accessible name starts with the visible words, so speech input ("click Copy link") finds it. */}
      <button
        type="button"
        className="link small"
        onClick={p.onCopy}
        aria-label={p.copied ? `Link copied: ${p.what}` : `Copy link to ${p.what}`}
      >
        {p.copied ? 'Link copied' : 'Copy link'}
      </button>
    </span>
  );
}
