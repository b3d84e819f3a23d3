import { useEffect, useRef } from 'react';
import { StartArenaForm } from '../arena/start-arena-form';
import { StartDebateForm } from '../debate/start-debate-form';
import { EvaluateForm } from '../evaluation/evaluate-form';

/** The runs an idea page starts from its header (or the palette). */
export type IdeaAction = 'evaluate' | 'debate' | 'arena';

export const ACTION_TITLES: Record<IdeaAction, string> = {
  evaluate: 'Evaluate this idea',
  debate: 'Start a crux debate',
  arena: 'Start an arena',
};

/**
 * The form of a header action, opened right under the header: the panels further down hold the
 * same forms, but a researcher should not have to scroll past the README to find how to start.
 * Each form shows the likely cost before anything starts.
 */
export function IdeaActionForm({ slug, action, onClose }: { slug: string; action: IdeaAction; onClose: () => void }) {
  const box = useRef<HTMLElement>(null);
  // Opened from the palette the header may be off screen; the form's first field takes the keyboard.
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    el.scrollIntoView({ block: 'nearest' });
    const timer = setTimeout(() => el.querySelector<HTMLElement>('select, input, button')?.focus(), 50);
    return () => clearTimeout(timer);
  }, []);
  return (
    <section ref={box} className="card stack idea-action" aria-label={`${ACTION_TITLES[action]} (from the header)`}>
      <div className="row" style={{ justifyContent: 'space-between' }}>
        <h2 style={{ margin: 0 }}>{ACTION_TITLES[action]}</h2>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
      {action === 'evaluate' ? (
        <EvaluateForm slug={slug} />
      ) : action === 'arena' ? (
        <StartArenaForm ideaSlug={slug} onCancel={onClose} />
      ) : (
        <StartDebateForm ideaSlug={slug} onCancel={onClose} />
      )}
    </section>
  );
}
