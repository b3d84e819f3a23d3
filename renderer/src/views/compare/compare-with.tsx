import { useEffect, useRef } from 'react';
import { navigate } from '../../router';
import { compareHref } from './compare-route';
import { IdeaPicker } from './idea-picker';

/**
 * An idea page's "Compare with…": this idea beside one to three others the researcher picks, then
 * the comparison. Needs nothing from the library's own selection.
 */
export function CompareWith({ slug, onClose }: { slug: string; onClose: () => void }) {
  const box = useRef<HTMLElement>(null);
  useEffect(() => {
    box.current?.scrollIntoView({ block: 'nearest' });
    box.current?.querySelector<HTMLElement>('input')?.focus();
  }, []);
  return (
    <section ref={box} className="card stack" aria-label="Compare with other ideas">
      <h2 style={{ margin: 0 }}>Compare with…</h2>
      <IdeaPicker
        fixed={slug}
        label="Ideas to compare with this one"
        onCompare={(s) => navigate(compareHref(s))}
        onCancel={onClose}
      />
    </section>
  );
}
