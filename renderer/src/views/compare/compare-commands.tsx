import { useMemo } from 'react';
import { type Command, useCommands } from '../../commands';
import { navigate } from '../../router';
import { compareHref } from './compare-route';

/**
 * The palette's way into a comparison from any view: "Compare ideas side by side…" opens the
 * comparison, which asks which ideas. Mounted once by the app; renders nothing.
 */
export function CompareCommands() {
  const commands = useMemo<Command[]>(
    () => [
      {
        id: 'action:compare',
        title: 'Compare ideas side by side…',
        group: 'Action',
        keywords: 'compare comparison side by side scores versus',
        run: () => navigate(compareHref([])),
      },
    ],
    [],
  );
  useCommands('compare-commands', commands);
  return null;
}
