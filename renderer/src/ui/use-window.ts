import { useEffect, useRef, useState } from 'react';

/**
 * The rows of a fixed-row-height list that are in view (plus `overscan` on each side), for a
 * scrolling element the caller renders with `ref` and `onScroll`: only rows `first`…`last - 1` are
 * drawn, the rest stand in as spacer height. Shared by the virtual list and the windowed tables.
 */
export function useWindow<E extends HTMLElement>(count: number, rowHeight: number, overscan: number) {
  const ref = useRef<E>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(600);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const observer = new ResizeObserver(() => setHeight(element.clientHeight || 600));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - overscan);
  const last = Math.min(count, Math.ceil((scrollTop + height) / rowHeight) + overscan);
  const onScroll = (event: React.UIEvent<E>) => setScrollTop(event.currentTarget.scrollTop);
  return { ref, first, last, onScroll };
}
