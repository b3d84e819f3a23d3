import { useEffect, useMemo, useRef, useState } from 'react';
import { useChannel } from './api/hooks';
import { type Command, allRegisteredCommands, onCommandsChanged } from './commands';
import { href, navigate } from './router';
import { VIEWS } from './views/registry';

/** Ranks a command for a query: every word must appear; earlier and title matches rank higher. */
export function score(command: Command, words: readonly string[]): number {
  const title = command.title.toLowerCase();
  const haystack = `${title} ${command.group.toLowerCase()} ${(command.keywords ?? '').toLowerCase()}`;
  let total = 0;
  for (const word of words) {
    const at = haystack.indexOf(word);
    if (at < 0) return -1;
    total += title.includes(word) ? 10 - Math.min(9, title.indexOf(word) / 4) : 1;
  }
  return total;
}

/**
 * The command palette (Ctrl/Cmd-K): every view, every idea and every action the mounted views
 * offer, filtered as one types; arrows move, Enter runs, Escape closes.
 */
export function Palette({ onClose, extra }: { onClose: () => void; extra: readonly Command[] }) {
  const [query, setQuery] = useState('');
  const [selected, setSelected] = useState(0);
  const [, setVersion] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  const ideas = useChannel('ideas:list', {});

  useEffect(() => onCommandsChanged(() => setVersion((v) => v + 1)), []);
  useEffect(() => input.current?.focus(), []);

  const commands = useMemo<Command[]>(() => {
    const views: Command[] = VIEWS.filter((v) => v.rail).map((v) => ({
      id: `view:${v.route}`,
      title: v.title,
      group: 'View',
      run: () => navigate(href(v.route)),
    }));
    const ideaCommands: Command[] = (ideas.data?.ideas ?? []).map((idea) => ({
      id: `idea:${idea.slug}`,
      title: idea.title,
      group: 'Idea',
      keywords: `${idea.slug} ${idea.tags.join(' ')} ${idea.stage} ${idea.type}`,
      run: () => navigate(href('idea', idea.slug)),
    }));
    return [...allRegisteredCommands(), ...extra, ...views, ...ideaCommands];
  }, [ideas.data, extra]);

  const shown = useMemo(() => {
    const words = query.toLowerCase().split(/\s+/).filter(Boolean);
    if (words.length === 0) return commands.slice(0, 50);
    return commands
      .map((c) => ({ c, s: score(c, words) }))
      .filter((x) => x.s >= 0)
      .sort((a, b) => b.s - a.s)
      .slice(0, 50)
      .map((x) => x.c);
  }, [commands, query]);

  const run = (command: Command | undefined) => {
    if (!command) return;
    onClose();
    command.run();
  };

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: a click outside the dialog closes it; Escape does the same from the keyboard
    <div className="palette-backdrop" onMouseDown={onClose} role="presentation">
      <div
        className="palette"
        role="dialog"
        aria-label="Command palette"
        aria-modal="true"
        onMouseDown={(e) => e.stopPropagation()}
      >
        <input
          ref={input}
          value={query}
          placeholder="Go to a view or idea, or run an action…"
          aria-label="Command"
          onChange={(e) => {
            setQuery(e.target.value);
            setSelected(0);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Escape') onClose();
            else if (e.key === 'ArrowDown') {
              e.preventDefault();
              setSelected((s) => Math.min(shown.length - 1, s + 1));
            } else if (e.key === 'ArrowUp') {
              e.preventDefault();
              setSelected((s) => Math.max(0, s - 1));
            } else if (e.key === 'Enter') run(shown[selected]);
          }}
        />
        <div role="listbox" aria-label="Commands" className="palette-list">
          {shown.map((command, i) => (
            <div
              key={command.id}
              role="option"
              data-command={command.id}
              tabIndex={-1}
              aria-selected={i === selected}
              className={i === selected ? 'selected' : ''}
              onMouseEnter={() => setSelected(i)}
              onClick={() => run(command)}
              onKeyDown={(e) => e.key === 'Enter' && run(command)}
            >
              <span>{command.title}</span>
              <span className="muted">{command.group}</span>
            </div>
          ))}
          {shown.length === 0 && <div className="muted">Nothing matches “{query}”.</div>}
        </div>
      </div>
    </div>
  );
}
