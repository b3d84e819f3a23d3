import type { DebateSummary, TranscriptSummary } from '../../../../core/contract';

// Small formatting helpers the debate, crux map, ledger and transcript views share.

export function money(usd: number): string {
  if (usd === 0) return '$0';
  return usd < 0.01 ? `$${usd.toFixed(4)}` : `$${usd.toFixed(2)}`;
}

export function tokens(n: number): string {
  if (n >= 1_000_000) return `${(n / 1_000_000).toFixed(1)}M`;
  if (n >= 10_000) return `${Math.round(n / 1000)}k`;
  return n.toLocaleString();
}

export function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  return m < 60 ? `${m}m ${s % 60}s` : `${Math.floor(m / 60)}h ${m % 60}m`;
}

/** A date-time as the researcher reads it (local time, no seconds). */
export function when(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/**
 * Badge class and words for a run's status (`running` without a live engine was interrupted), a
 * debate's or an evaluation's (whose `completed` is its lock, and says so).
 */
export function statusBadge(
  status: DebateSummary['status'] | TranscriptSummary['status'],
  live: boolean,
  kind: 'debate' | 'evaluation' | 'run' = 'debate',
): { label: string; tone: string } {
  if (status === 'running') return live ? { label: 'running', tone: 'accent' } : { label: 'interrupted', tone: 'warn' };
  if (status === 'paused') return { label: kind === 'evaluation' ? 'stopped' : 'paused', tone: 'warn' };
  if (status === 'completed') return { label: kind === 'evaluation' ? 'locked' : 'completed', tone: 'ok' };
  if (status === 'failed') return { label: 'failed', tone: 'danger' };
  return { label: status, tone: '' };
}

/** A thread's status as a badge tone: open stages neutral/accent, converged ok, failures danger. */
export function threadTone(status: string): string {
  if (status === 'CONVERGED') return 'ok';
  if (status.startsWith('FAILED') || status === 'STALE') return 'danger';
  if (status === 'MERGED') return '';
  return 'accent';
}

/**
 * A long text (a crux question) cut at a word boundary to at most `max` characters, with an
 * ellipsis; the caller puts the whole text in a tooltip.
 */
export function clip(text: string, max = 90): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:–—-]+$/, '')}…`;
}

/** The n-th category colour (agents and coalitions are told apart by these). */
export function seriesColor(n: number): string {
  return `var(--cat-${(n % 6) + 1})`;
}

export const ENDED = new Set(['completed', 'partial', 'cancelled', 'failed']);
