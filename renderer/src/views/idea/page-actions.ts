import type { Command } from '../../commands';

/**
 * One action of the idea page: the button (or link) that does it and its entry in the command
 * palette come from this one record, so the palette cannot lose an action the page shows. The
 * button carries `data-action={id}`, the palette entry the id `idea:<slug>:<id>` (the browser test
 * first-hour.e2e.test.ts matches every action control of the page to its entry).
 */
export interface PageAction {
  id: string;
  /** The button's words. */
  label: string;
  /** The palette entry's words (naming the idea: the palette is read away from the page). */
  palette: string;
  keywords: string;
  run: () => void;
}

export const ACTION_GROUP = 'This idea';

export function actionCommands(slug: string, actions: readonly PageAction[]): Command[] {
  return actions.map((a) => ({
    id: `idea:${slug}:${a.id}`,
    title: a.palette,
    group: ACTION_GROUP,
    keywords: a.keywords,
    run: a.run,
  }));
}
