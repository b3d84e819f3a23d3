import { useEffect, useRef, useState } from 'react';

/**
 * The rows of a fixed-row-height list that are in view (plus `overscan` on each side), for a
 * scrolling element the caller renders with `ref` and `onScroll`: only rows `first`…`last - 1` are
 * drawn, the rest stand in as spacer height. Shared by the virtual list and the windowed tables.
 *
 * The state kept is the row at the top, not the scroll offset: a scroll within one row changes
 * nothing, so the list is drawn again only when a row enters or leaves the view.
 */
export function useWindow<E extends HTMLElement>(count: number, rowHeight: number, overscan: number) {
  const ref = useRef<E>(null);
  const [topRow, setTopRow] = useState(0);
  const [height, setHeight] = useState(600);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const observer = new ResizeObserver(() => setHeight(element.clientHeight || 600));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  const first = Math.max(0, topRow - overscan);
  const last = Math.min(count, topRow + Math.ceil(height / rowHeight) + 1 + overscan);
  const onScroll = (event: React.UIEvent<E>) => setTopRow(Math.floor(event.currentTarget.scrollTop / rowHeight));
  return { ref, first, last, onScroll };
}
