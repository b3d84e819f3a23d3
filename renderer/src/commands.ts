import { useEffect } from 'react';

/** Something the command palette can do: go somewhere or run an action. */
export interface Command {
  id: string;
  title: string;
  /** Shown dimmed after the title: the group (`View`, `Idea`, `Action`) or a hint. */
  group: string;
  /** Extra words the palette matches (tags, slug …). */
  keywords?: string;
  run: () => void;
}

type Listener = () => void;
const registered = new Map<string, readonly Command[]>();
const listeners = new Set<Listener>();

/** Commands of every mounted view, in registration order. */
export function allRegisteredCommands(): Command[] {
  return [...registered.values()].flat();
}

export function onCommandsChanged(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Offers commands to the palette while the calling component is mounted (a view registers its own
 * actions: "Evaluate this idea", "Pause the debate" …). `owner` must be unique per caller.
 */
export function useCommands(owner: string, commands: readonly Command[]): void {
  useEffect(() => {
    registered.set(owner, commands);
    for (const l of listeners) l();
    return () => {
      registered.delete(owner);
      for (const l of listeners) l();
    };
  }, [owner, commands]);
}
