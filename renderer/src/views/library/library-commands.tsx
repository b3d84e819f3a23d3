import { useEffect, useMemo, useState } from 'react';
import { useClient } from '../../api/client';
import { useAction } from '../../api/hooks';
import { type Command, useCommands } from '../../commands';
import { href, navigate } from '../../router';
import { ErrorNotice } from '../../ui/error-notice';
import './library.css';

/**
 * Palette commands that work from every view: "New idea" (the library with the cursor in the capture
 * box) and "Sync the folder" (a full reconcile, with what it found shown for a few seconds).
 * Mounted once by the app.
 */
export function LibraryCommands() {
  const client = useClient();
  const [shown, setShown] = useState<string | null>(null);
  const sync = useAction(async () => {
    const report = await client.invoke('workspace:sync', {});
    setShown(
      `Folder synced: ${report.ideas} ideas (${report.added} new, ${report.changed} changed, ${report.removed} removed)${
        report.errors.length ? `; ${report.errors.length} file(s) could not be read` : ''
      }.`,
    );
  });
  useEffect(() => {
    if (!shown) return;
    const timer = setTimeout(() => setShown(null), 5000);
    return () => clearTimeout(timer);
  }, [shown]);

  const commands = useMemo<Command[]>(
    () => [
      {
        id: 'action:new-idea',
        title: 'New idea',
        group: 'Action',
        keywords: 'capture add create write',
        // A fresh query each time, so the capture box takes the focus even when already open.
        run: () => navigate(href('library', { new: 1, t: Date.now() })),
      },
      {
        id: 'action:sync',
        title: 'Sync the folder',
        group: 'Action',
        keywords: 'reconcile refresh index reload rescan workspace',
        run: () => void sync.run(),
      },
    ],
    [sync.run],
  );
  useCommands('library-commands', commands);

  if (!shown && !sync.error && !sync.running) return null;
  return (
    <div className="toast" role="status">
      {sync.running && 'Syncing the folder…'}
      {shown}
      <ErrorNotice error={sync.error} onDismiss={sync.clearError} />
    </div>
  );
}
