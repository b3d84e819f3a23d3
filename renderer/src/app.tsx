import { Suspense, useEffect, useMemo, useState } from 'react';
import { useHost } from './api/client';
import { usePush } from './api/hooks';
import type { Command } from './commands';
import { Palette } from './palette';
import { href, navigate, useRoute } from './router';
import { useTheme } from './theme';
import { ApprovalsNotifier } from './views/approvals/approvals-badge';
import { CompareCommands } from './views/compare/compare-commands';
import { LibraryCommands } from './views/library/library-commands';
import { prefetchViews, VIEWS, viewFor } from './views/registry';

/**
 * The window: a left rail of views, the current view, the command palette (Ctrl/Cmd-K) and the
 * theme. Alt+1…0 jump to the rail's views.
 */
export function App() {
  const route = useRoute();
  const host = useHost();
  const [theme, setTheme] = useTheme();
  const [paletteOpen, setPaletteOpen] = useState(false);
  const [lastSync, setLastSync] = useState<string | null>(null);
  usePush('sync:changed', (report) => {
    if (report.added + report.changed + report.removed > 0) setLastSync(new Date().toLocaleTimeString());
  });

  // Once the first view is up, the other views' code loads in idle moments.
  useEffect(() => {
    const timer = setTimeout(prefetchViews, 1000);
    return () => clearTimeout(timer);
  }, []);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        setPaletteOpen((open) => !open);
      } else if (e.altKey && !e.ctrlKey && !e.metaKey) {
        const view = VIEWS.find((v) => v.key === e.key);
        if (view) {
          e.preventDefault();
          navigate(href(view.route));
        }
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const themeCommand = useMemo<Command[]>(
    () => [
      {
        id: 'action:theme',
        title: theme === 'dark' ? 'Switch to the light theme' : 'Switch to the dark theme',
        group: 'Action',
        keywords: 'theme dark light colours',
        run: () => setTheme(theme === 'dark' ? 'light' : 'dark'),
      },
    ],
    [theme, setTheme],
  );

  const view = viewFor(route.view);
  const View = view.component;
  const current = view.rail ? view.route : null;

  return (
    <div className="app">
      <nav className="rail" aria-label="Views">
        <div className="brand">Crucible</div>
        {VIEWS.filter((v) => v.rail).map((v) => (
          <a
            key={v.route}
            href={href(v.route)}
            className={v.route === current ? 'active' : ''}
            aria-current={v.route === current ? 'page' : undefined}
            title={v.key ? `${v.title} (Alt+${v.key})` : v.title}
          >
            {v.title}
            {v.badge && <v.badge />}
          </a>
        ))}
        <div className="rail-foot">
          <button
            type="button"
            className="link"
            onClick={() => setPaletteOpen(true)}
            title="Command palette (Ctrl/Cmd-K)"
          >
            Commands ⌘K
          </button>
          <button
            type="button"
            className="link"
            onClick={() => setTheme(theme === 'dark' ? 'light' : 'dark')}
            aria-label={`Switch to the ${theme === 'dark' ? 'light' : 'dark'} theme`}
          >
            {theme === 'dark' ? 'Light theme' : 'Dark theme'}
          </button>
          <span className="muted small">{host.kind === 'browser' ? 'Browser mode' : 'Desktop'}</span>
          {lastSync && (
            <span className="muted small" aria-live="polite">
              Folder synced {lastSync}
            </span>
          )}
        </div>
      </nav>
      {/* The page scrolls here: focusable and named, so a keyboard alone can scroll a view without links. */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus to be scrolled by keyboard (WCAG 2.1.1) */}
      <main className="main" id="main" tabIndex={0} aria-label={view.title}>
        <Suspense fallback={<p className="view muted">Opening {view.title}…</p>}>
          <View key={`${route.view}/${route.params.join('/')}`} route={route} />
        </Suspense>
      </main>
      <LibraryCommands />
      <CompareCommands />
      <ApprovalsNotifier />
      {paletteOpen && <Palette onClose={() => setPaletteOpen(false)} extra={themeCommand} />}
    </div>
  );
}
