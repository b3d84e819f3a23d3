import { score } from './format';

/**
 * "Lock now" approves the scores as they stand. Below the confidence the protocol asks for before a
 * lock, it says so and asks first: a lock at 0.63 under a 0.7 threshold went through without a
 * word, and the leaderboard then showed the scores as settled. `asking` is held by the view, so the
 * palette's "lock now" asks the same question.
 */
export function LockNow({
  confidence,
  minimum,
  asking,
  onAsk,
  onLock,
  onKeep,
}: {
  confidence: number | null;
  minimum: number;
  asking: boolean;
  onAsk: () => void;
  onLock: () => void;
  onKeep: () => void;
}) {
  const below = lockIsEarly(confidence, minimum);
  return (
    <>
      <button
        type="button"
        onClick={below ? onAsk : onLock}
        title={
          below
            ? `Confidence ${score(confidence)} is below the ${minimum} a lock asks for: you will be asked first`
            : 'Lock with the scores as they stand (lock reason USER_APPROVED)'
        }
      >
        Lock now{below && ` (confidence ${score(confidence)} < ${minimum})`}
      </button>
      {asking && (
        <div
          role="alertdialog"
          aria-label="Lock below the confidence threshold"
          className="lock-ask"
          data-testid="lock-ask"
        >
          <p style={{ margin: '0 0 6px' }}>
            The evaluation’s confidence is {score(confidence)}, below the {minimum} the protocol asks for before a lock:
            its scores have not been tested enough to be read as settled. Lock with them as they stand?
          </p>
          <div className="row">
            <button type="button" className="danger" onClick={onLock}>
              Lock anyway
            </button>
            <button type="button" onClick={onKeep}>
              Keep it running
            </button>
          </div>
        </div>
      )}
    </>
  );
}

/** A lock is early when the confidence is unknown or below the threshold. */
export const lockIsEarly = (confidence: number | null, minimum: number) => confidence === null || confidence < minimum;
