import { originOf } from './ipc';

/**
 * What happens when the page tries to leave itself: by a link, by script (`location = …`), or by
 * opening a window. The window never navigates away from our own pages and never opens another
 * window; an http(s) link the researcher has just clicked opens in their browser, and nothing else
 * does (a page that sets `location` on its own, a `file:` or custom-scheme link, a script opening
 * windows in a loop).
 */

export type NavigationDecision = 'stay' | 'external' | 'block';

/** How long after a click or key press a navigation still counts as the researcher's doing. */
export const USER_ACTION_WINDOW_MS = 1000;

/** Tracks the researcher's last click or key press in the window (fed from `input-event`). */
export class UserActivity {
  private last = Number.NEGATIVE_INFINITY;

  constructor(private readonly now: () => number = Date.now) {}

  /** Called with the type of each input event; only presses count (not moves or scrolls). */
  note(type: string): void {
    if (
      type === 'mouseDown' ||
      type === 'mouseUp' ||
      type === 'keyDown' ||
      type === 'rawKeyDown' ||
      type === 'gestureTap'
    ) {
      this.last = this.now();
    }
  }

  /** True once per action: a second navigation riding on the same click is not the user's. */
  consume(): boolean {
    const recent = this.now() - this.last <= USER_ACTION_WINDOW_MS;
    this.last = Number.NEGATIVE_INFINITY;
    return recent;
  }
}

/** An address the researcher's browser may be asked to open: http(s) only, no credentials in it. */
export function externalAddress(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
  if (parsed.username !== '' || parsed.password !== '') return null;
  return parsed.href;
}

/**
 * A navigation of the window (`will-navigate`, `will-redirect`) or a request to open a window
 * (`setWindowOpenHandler`). Our own pages may be navigated among (a reload, a different view);
 * everything else is blocked, and an http(s) address the user just asked for goes to the browser.
 */
export function decideNavigation(
  url: string,
  options: { ownOrigins: readonly string[]; userActed: () => boolean; newWindow: boolean },
): NavigationDecision {
  const origin = originOf(url);
  if (!options.newWindow && origin !== null && options.ownOrigins.includes(origin)) return 'stay';
  if (externalAddress(url) === null) return 'block';
  return options.userActed() ? 'external' : 'block';
}
