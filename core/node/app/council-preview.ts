import type { CouncilPreview, CouncilPreviewFile } from '../../contract';
import type { CouncilAction } from '../../council/actions';
import type { CouncilFiles, FileText, IdeaMetaView } from '../../council/files-port';
import { type FileOp, planAction } from '../../council/plan-action';
import { IDEAS_DIR } from '../../idea/layout';
import { parseMarkdown } from '../markdown';

/**
 * What a proposal would do to the workspace, worked out without writing anything: each action is
 * planned by the council's own planner (the one execution uses) against an overlay of the real
 * files, and its operations are applied to the overlay only, so a later action sees what an earlier
 * one would have left (two edits of one README compose). The result is every file touched, with its
 * text now and after. Execution stops at the first action that cannot be done; so does the preview.
 */

/** A text past this length is cut in the preview (a README is a few kilobytes). */
export const PREVIEW_CHARS = 100_000;

/** The frontmatter fields the council's tools read, from a README's text (as the file port reads them). */
function metaOf(text: string): IdeaMetaView {
  let data: Record<string, unknown> = {};
  try {
    data = parseMarkdown(text).data;
  } catch {
    // An unreadable frontmatter is an idea with no fields, as the file port treats it.
  }
  const str = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : null);
  const tags = Array.isArray(data.tags) ? data.tags.map(String) : typeof data.tags === 'string' ? [data.tags] : [];
  const relationships = Array.isArray(data.relationships)
    ? data.relationships.flatMap((r) => {
        const target = (r as { target?: unknown } | null)?.target;
        return typeof target === 'string' ? [{ target, type: String((r as { type?: unknown }).type ?? '') }] : [];
      })
    : [];
  return { id: str(data.id), title: str(data.title), stage: str(data.stage), tags, relationships };
}

/**
 * The file port seen through an overlay: reads come from what the planned operations left, falling
 * back to the real files; every write and removal lands in the overlay only. Nothing here
 * touches the disk but to read.
 */
export function overlayFiles(base: CouncilFiles): { files: CouncilFiles; overlay: Map<string, string | null> } {
  const overlay = new Map<string, string | null>();
  const read = (path: string): FileText | null => {
    if (overlay.has(path)) {
      const text = overlay.get(path);
      return text === null || text === undefined ? null : { text, hash: base.hashOf(text) };
    }
    return base.read(path);
  };
  const matches = (path: string, expected: string | null | 'any') =>
    expected === 'any' || (read(path)?.hash ?? null) === expected;
  const files: CouncilFiles = {
    ...base,
    read,
    listFiles(dir) {
      const real = base.listFiles(dir) ?? [];
      const all = new Set(real);
      for (const [path, text] of overlay) {
        if (!path.startsWith(`${dir}/`)) continue;
        if (text === null) all.delete(path);
        else all.add(path);
      }
      if (all.size === 0 && base.listFiles(dir) === null) return null;
      return [...all].sort();
    },
    ideaSlugs() {
      const slugs = new Set(base.ideaSlugs());
      for (const [path, text] of overlay) {
        const m = /^ideas\/([^/]+)\/README\.md$/.exec(path);
        if (m?.[1] && text !== null) slugs.add(m[1]);
      }
      return [...slugs].sort();
    },
    meta(slug) {
      const readme = read(`${IDEAS_DIR}/${slug}/README.md`);
      return readme ? metaOf(readme.text) : null;
    },
    snapshot(path) {
      const found = read(path);
      return found ? Buffer.from(found.text, 'utf8').toString('base64') : null;
    },
    write(path, content, expected) {
      if (!matches(path, expected)) return { path: `${path} (conflict)`, conflict: true };
      overlay.set(path, content);
      return { path, conflict: false };
    },
    restore(path, snapshot, expected) {
      if (!matches(path, expected)) return { path: `${path} (conflict)`, conflict: true };
      overlay.set(path, Buffer.from(snapshot, 'base64').toString('utf8'));
      return { path, conflict: false };
    },
    remove(path, expected) {
      if (read(path) === null || !matches(path, expected)) return { removed: false };
      overlay.set(path, null);
      return { removed: true };
    },
  };
  return { files, overlay };
}

function applyOp(files: CouncilFiles, op: FileOp): void {
  if (op.kind === 'write') files.write(op.path, op.content, op.expected);
  else if (op.kind === 'remove') files.remove(op.path, op.expected);
  else {
    // As execution moves a file: a copy placed at `to`, then the original removed.
    files.restore(op.to, files.snapshot(op.from) ?? '', null);
    files.remove(op.from, op.expected);
  }
}

const clip = (text: string | null) =>
  text !== null && text.length > PREVIEW_CHARS
    ? { text: text.slice(0, PREVIEW_CHARS), cut: true }
    : { text, cut: false };

/** The preview of `actions` (a proposal's last version) on the files as they are now. */
export function previewActions(
  base: CouncilFiles,
  id: string,
  version: number,
  actions: readonly CouncilAction[],
): CouncilPreview {
  const { files } = overlayFiles(base);
  const touched = new Map<string, { actions: number[]; movedTo: string | null; movedFrom: string | null }>();
  const touch = (path: string, action: number) => {
    const entry = touched.get(path) ?? { actions: [], movedTo: null, movedFrom: null };
    if (!entry.actions.includes(action)) entry.actions.push(action);
    touched.set(path, entry);
    return entry;
  };
  const reads: string[] = [];
  const failures: CouncilPreview['failures'] = [];
  for (const [i, action] of actions.entries()) {
    const plan = planAction(action, files);
    if (!plan.ok) {
      failures.push({ action: i, tool: action.tool, detail: plan.detail });
      break;
    }
    for (const path of plan.read) if (!reads.includes(path)) reads.push(path);
    for (const op of plan.ops) {
      if (op.kind === 'move') {
        touch(op.from, i).movedTo = op.to;
        touch(op.to, i).movedFrom = op.from;
      } else touch(op.path, i);
      applyOp(files, op);
    }
  }
  const out: CouncilPreviewFile[] = [];
  for (const [path, entry] of touched) {
    // A move shows once, at its source; its destination is the same bytes.
    if (
      entry.movedFrom !== null &&
      base.read(path) === null &&
      files.read(path)?.text === base.read(entry.movedFrom)?.text
    )
      continue;
    const before = base.read(path)?.text ?? null;
    const after = files.read(path)?.text ?? null;
    if (entry.movedTo !== null && after === null) {
      out.push({
        path,
        change: 'moved',
        to: entry.movedTo,
        before: null,
        after: null,
        truncated: false,
        actions: entry.actions,
      });
      continue;
    }
    if (before === after) continue;
    const b = clip(before);
    const a = clip(after);
    out.push({
      path,
      change: before === null ? 'created' : after === null ? 'deleted' : 'modified',
      to: null,
      before: b.text,
      after: a.text,
      truncated: b.cut || a.cut,
      actions: entry.actions,
    });
  }
  return { id, version, files: out, reads, failures };
}
