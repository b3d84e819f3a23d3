import { type EvaluationStatus, evaluationStatusOf, type RunStatusView } from '../../../../core/contract';
import { plainWords } from '../../ui/glossary';
import { phaseTerm } from './entry-words';

/**
 * An evaluation as every channel states its status: a run's; with its lock reason when the view
 * has it, so a lock that did not converge is not shown green.
 */
type RunLike = { status: RunStatusView; live: boolean; stopRequested: boolean; lockReason?: string | null };

/**
 * The colour of a lock: green (`ok`) only when the scores converged; amber (`warn`) when a limit
 * (rounds, budget, time) locked it first; neutral when the researcher locked it or the reason is
 * not known.
 */
export function lockTone(reason: string | null | undefined): 'ok' | 'warn' | '' {
  if (reason === 'CONVERGENCE') return 'ok';
  if (reason === 'USER_APPROVED' || reason === null || reason === undefined) return '';
  return 'warn';
}

/** The word an evaluation view shows for where it stands (`locked`, `stopped` …). */
export const statusWord = (run: RunLike): EvaluationStatus => evaluationStatusOf(run);

/** How the evaluation views write numbers: scores with 2 decimals, shares as percentages, money in USD. */
export const score = (n: number | null | undefined, digits = 2): string =>
  n === null || n === undefined ? '—' : n.toFixed(digits);

export const pct = (n: number | null | undefined): string =>
  n === null || n === undefined ? '—' : `${Math.round(n * 100)}%`;

export const usd = (n: number | null | undefined): string => {
  if (n === null || n === undefined) return '—';
  if (n === 0) return '$0';
  return n < 0.01 ? `$${n.toFixed(4)}` : `$${n.toFixed(2)}`;
};

/** A duration in words a researcher reads at a glance (`about 2 min`, `40 s`). */
export function duration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '—';
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.round(s / 60);
  if (m < 60) return `about ${m} min`;
  return `about ${Math.floor(m / 60)} h ${m % 60} min`;
}

/**
 * The badge class of a status: running is accent, a stop is a warning, a failure danger; a lock
 * takes its reason's colour (green only when its scores converged).
 */
export function statusClass(run: RunLike): string {
  switch (statusWord(run)) {
    case 'running':
      return 'badge accent';
    case 'stopping':
    case 'stopped':
      return 'badge warn';
    case 'failed':
      return 'badge danger';
    case 'locked': {
      const tone = lockTone(run.lockReason);
      return tone ? `badge ${tone}` : 'badge';
    }
  }
}

const WORDS: Record<EvaluationStatus, string> = {
  running: 'running',
  stopping: 'stopping…',
  stopped: 'stopped',
  failed: 'failed',
  locked: 'locked',
};

/** The badge's text. */
export const statusLabel = (run: RunLike): string => WORDS[statusWord(run)];

/** The colour variable of the category at `index` in the taxonomy's order (six categories, six colours). */
export const categoryVar = (index: number): string => `--cat-${(index % 6) + 1}`;

/** A score from 1 to 10 as a background: the accent colour, stronger for higher scores. */
export function scoreBackground(value: number): string {
  const share = Math.max(0, Math.min(1, (value - 1) / 9));
  return `color-mix(in srgb, var(--accent) ${Math.round(12 + share * 78)}%, var(--bg-raised))`;
}

export const MODE_WORDS: Record<string, string> = {
  quick: 'quick: 1 round, 2 red-teamers',
  standard: 'standard: up to 3 rounds, 3 red-teamers',
  deep: 'deep: up to 5 rounds, 6 red-teamers',
};

/**
 * Whether the header shows the phase beside the status: not once the status says the same thing
 * ("locked" beside "locked", "failed" beside "failed"), only while the phase adds where it stands.
 */
export function showsPhase(run: RunLike & { phase: string }): boolean {
  const word = statusWord(run);
  if (word === 'locked' || run.phase === 'LOCKED') return false;
  return !(word === 'failed' && run.phase === 'FAILED');
}

/** Why an evaluation stopped (`stopReason`: the log's code, or a failure's own message), in words. */
const STOP_WORDS: Record<string, string> = {
  cancelled: 'you stopped it',
  'app closed': 'the app was closed while it ran',
  'review gate': 'held for your review (the pipeline’s review gate)',
  interrupted: 'interrupted: the app stopped while it ran',
};

export function stopReasonWords(reason: string): string {
  return STOP_WORDS[reason] ?? reason;
}

/** A phase in words ("red team debating"), for a line of text rather than a badge with its (?). */
export const phaseWords = (phase: string): string => plainWords(phaseTerm(phase));
