import { type MutableRefObject, type ReactNode, useEffect, useRef, useState } from 'react';
import { carriesSomething, type Dropped, readDrop } from './drop';

/**
 * A place to drop files or text, with a "Choose files…" button as its keyboard (and mouse-only)
 * alternative. `onDropped` gets what was dropped or chosen; the zone shows the drag highlight.
 * `chooseRef` is given the function that opens the file chooser (for a palette entry); `action`
 * marks the button as a page action (`data-action`).
 */
export function DropZone({
  label,
  hint,
  busy,
  onDropped,
  accept,
  action,
  chooseRef,
  children,
}: {
  label: string;
  hint: string;
  busy: boolean;
  onDropped: (dropped: Dropped) => void;
  accept?: string;
  action?: string;
  chooseRef?: MutableRefObject<(() => void) | null>;
  children?: ReactNode;
}) {
  const [over, setOver] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (!chooseRef) return;
    chooseRef.current = () => input.current?.click();
    return () => {
      chooseRef.current = null;
    };
  }, [chooseRef]);
  return (
    <section
      className={`drop-zone${over ? ' over' : ''}`}
      aria-label={label}
      data-testid="drop-zone"
      onDragOver={(e) => {
        if (!carriesSomething(e.dataTransfer)) return;
        e.preventDefault();
        e.dataTransfer.dropEffect = 'copy';
        setOver(true);
      }}
      onDragLeave={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setOver(false);
      }}
      onDrop={(e) => {
        e.preventDefault();
        e.stopPropagation();
        setOver(false);
        onDropped(readDrop(e.dataTransfer));
      }}
    >
      <div className="drop-zone-text">
        <strong>{label}</strong>
        <span className="muted small">{hint}</span>
      </div>
      <div className="row">
        <button type="button" data-action={action} onClick={() => input.current?.click()} disabled={busy}>
          Choose files…
        </button>
        {children}
      </div>
      <input
        ref={input}
        type="file"
        multiple
        hidden
        accept={accept}
        onChange={(e) => {
          const files = Array.from(e.currentTarget.files ?? []);
          e.currentTarget.value = '';
          if (files.length > 0) onDropped({ files, text: null });
        }}
      />
    </section>
  );
}
