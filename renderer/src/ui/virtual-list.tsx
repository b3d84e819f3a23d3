import { type ReactNode, useImperativeHandle } from 'react';
import { useWindow } from './use-window';

export interface VirtualListHandle {
  scrollToIndex(index: number): void;
}

interface Props<T> {
  items: readonly T[];
  /** Every row's height in pixels: rows are fixed-height so any row's place is known at once. */
  rowHeight: number;
  render: (item: T, index: number) => ReactNode;
  /** Rows drawn beyond the visible ones on each side, so a fast scroll shows no gap. */
  overscan?: number;
  className?: string;
  ariaLabel?: string;
  handle?: React.Ref<VirtualListHandle>;
}

/**
 * A list that draws only the rows in view (plus a few): 10,000 transcript messages or leaderboard
 * rows scroll as smoothly as 10. The container must have a height (CSS).
 */
export function VirtualList<T>({ items, rowHeight, render, overscan = 8, className, ariaLabel, handle }: Props<T>) {
  const { ref, first, last, onScroll } = useWindow<HTMLElement>(items.length, rowHeight, overscan);

  useImperativeHandle(handle, () => ({
    scrollToIndex(index: number) {
      const element = ref.current;
      if (element) element.scrollTop = Math.max(0, index * rowHeight - element.clientHeight / 3);
    },
  }));

  const rows: ReactNode[] = [];
  for (let i = first; i < last; i++) {
    rows.push(
      <div
        key={i}
        className="virtual-row"
        style={{ position: 'absolute', top: i * rowHeight, height: rowHeight, left: 0, right: 0 }}
      >
        {render(items[i] as T, i)}
      </div>,
    );
  }
  return (
    <section
      ref={ref}
      className={`virtual-list ${className ?? ''}`}
      aria-label={ariaLabel}
      onScroll={onScroll}
      style={{ overflowY: 'auto', position: 'relative' }}
    >
      <div style={{ height: items.length * rowHeight, position: 'relative' }}>{rows}</div>
    </section>
  );
}
