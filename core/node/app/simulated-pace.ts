import { readSettings } from './settings-file';

/**
 * The wait before each simulated answer when the app paces the simulator. A simulated crux debate
 * makes about 45 calls, many of them one after another, so at this wait it unfolds over a few
 * seconds: long enough for a new researcher to watch turns arrive, short enough not to bore.
 */
export const PACED_CALL_MS = 110;

/**
 * How long each simulated call of a run started now waits: nothing unless the host paces the
 * simulator (the desktop app and browser mode do; the CLI and tests do not), and nothing when the
 * workspace's settings say `simulatedPace: instant`. Read at each run's start, so a change in
 * Settings applies to the next run.
 */
export function simulatedCallMs(root: string, hostPaces: boolean): number {
  if (!hostPaces) return 0;
  return readSettings(root).simulatedPace === 'paced' ? PACED_CALL_MS : 0;
}
