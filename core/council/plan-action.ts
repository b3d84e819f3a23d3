import { setFrontmatterField } from '../idea/frontmatter-edit';
import { ideaFile, ideaFolder } from '../idea/layout';
import { uniqueSlug } from '../idea/slug';
import type { CouncilAction } from './actions';
import type { CouncilFiles } from './files-port';
import { replaceSection } from './sections';

/**
 * What an action does to the files, worked out from what they hold now: a list of operations, each
 * made against the hash of the version it was computed from (so the safe write sees an edit made
 * meanwhile). Reads plan no operation; their result is what they read.
 */
export type FileOp =
  | { kind: 'write'; path: string; content: string; expected: string | null }
  | { kind: 'remove'; path: string; expected: string }
  | { kind: 'move'; from: string; to: string; expected: string };

export type ActionPlan = { ok: true; ops: FileOp[]; read: string[]; detail: string } | { ok: false; detail: string };

const fail = (detail: string): ActionPlan => ({ ok: false, detail });
const readme = (slug: string) => ideaFile(slug, 'README.md');

/** The frontmatter edits of one README, made on its current text. */
function editReadme(
  files: CouncilFiles,
  slug: string,
  fields: Record<string, string>,
): { ok: true; op: FileOp } | { ok: false; detail: string } {
  const current = files.read(readme(slug));
  if (!current) return { ok: false, detail: `no idea "${slug}" (${readme(slug)} is missing)` };
  let text = current.text;
  for (const [key, value] of Object.entries(fields)) text = setFrontmatterField(text, key, value);
  return { ok: true, op: { kind: 'write', path: readme(slug), content: text, expected: current.hash } };
}

/** The README's body: what follows its frontmatter. */
function bodyOf(text: string): string {
  return text.replace(/^\ufeff?---\r?\n[\s\S]*?\r?\n---(\r?\n|$)/, '');
}

export function planAction(action: CouncilAction, files: CouncilFiles): ActionPlan {
  const today = files.today();
  switch (action.tool) {
    case 'read_idea': {
      const text = files.read(readme(action.args.idea));
      return text
        ? { ok: true, ops: [], read: [readme(action.args.idea)], detail: text.text }
        : fail(`no idea "${action.args.idea}"`);
    }
    case 'list_ideas':
      return { ok: true, ops: [], read: [], detail: files.ideaSlugs().join('\n') };
    case 'search':
      return { ok: true, ops: [], read: [], detail: files.search(action.args.query).join('\n') };
    case 'read_file': {
      const text = files.read(action.args.path);
      return text
        ? { ok: true, ops: [], read: [action.args.path], detail: text.text }
        : fail(`no file ${action.args.path}`);
    }
    case 'write_note': {
      const slug = action.args.path.split('/')[1] as string;
      if (!files.read(readme(slug))) return fail(`no idea "${slug}" to write a note in`);
      // A note is a new file: one already there is somebody's, and is left alone.
      if (files.read(action.args.path)) return fail(`${action.args.path} already exists; a note never replaces a file`);
      return {
        ok: true,
        ops: [{ kind: 'write', path: action.args.path, content: action.args.content, expected: null }],
        read: [],
        detail: `new note ${action.args.path}`,
      };
    }
    case 'edit_section': {
      const current = files.read(action.args.path);
      if (!current) return fail(`no file ${action.args.path}`);
      const content = replaceSection(current.text, action.args.section, action.args.content);
      return {
        ok: true,
        ops: [{ kind: 'write', path: action.args.path, content, expected: current.hash }],
        read: [],
        detail: `section "${action.args.section}" of ${action.args.path}`,
      };
    }
    case 'add_tags': {
      const meta = files.meta(action.args.idea);
      if (!meta) return fail(`no idea "${action.args.idea}"`);
      const tags = [...meta.tags];
      for (const tag of action.args.tags) if (!tags.includes(tag)) tags.push(tag);
      const edit = editReadme(files, action.args.idea, { tags: JSON.stringify(tags), updated: today });
      return edit.ok ? { ok: true, ops: [edit.op], read: [], detail: `tags ${tags.join(', ')}` } : fail(edit.detail);
    }
    case 'link_ideas': {
      const meta = files.meta(action.args.idea);
      if (!meta) return fail(`no idea "${action.args.idea}"`);
      if (!files.meta(action.args.other)) return fail(`no idea "${action.args.other}" to link to`);
      const links = meta.relationships.filter((r) => !(r.target === action.args.other && r.type === action.args.kind));
      links.push({ target: action.args.other, type: action.args.kind });
      const edit = editReadme(files, action.args.idea, { relationships: JSON.stringify(links), updated: today });
      return edit.ok
        ? { ok: true, ops: [edit.op], read: [], detail: `${action.args.idea} ${action.args.kind} ${action.args.other}` }
        : fail(edit.detail);
    }
    case 'set_stage':
    case 'archive_idea': {
      const stage = action.tool === 'archive_idea' ? 'ARCHIVE' : action.args.stage.toUpperCase();
      const stages = files.stages();
      if (!stages.includes(stage)) return fail(`unknown stage "${stage}" (one of ${stages.join(', ')})`);
      const edit = editReadme(files, action.args.idea, { stage, updated: today });
      return edit.ok ? { ok: true, ops: [edit.op], read: [], detail: `stage ${stage}` } : fail(edit.detail);
    }
    case 'capture_idea': {
      const slug = uniqueSlug(action.args.title, files.ideaSlugs());
      const summary = (action.args.text.trim().split('\n')[0] ?? '').slice(0, 200);
      const content = [
        '---',
        `id: ${JSON.stringify(files.newId())}`,
        `slug: ${JSON.stringify(slug)}`,
        `title: ${JSON.stringify(action.args.title)}`,
        'type: research',
        'stage: SPARK',
        'tags: []',
        `summary: ${JSON.stringify(summary)}`,
        `created: ${today}`,
        `updated: ${today}`,
        'relationships: []',
        '---',
        '',
        `# ${action.args.title}`,
        '',
        action.args.text.trim(),
        '',
      ].join('\n');
      return {
        ok: true,
        ops: [{ kind: 'write', path: readme(slug), content, expected: null }],
        read: [],
        detail: `new idea ${slug}`,
      };
    }
    case 'delete_file': {
      const current = files.read(action.args.path);
      if (!current) return fail(`no file ${action.args.path}`);
      return {
        ok: true,
        ops: [{ kind: 'remove', path: action.args.path, expected: current.hash }],
        read: [],
        detail: `delete ${action.args.path}`,
      };
    }
    case 'merge_ideas': {
      const { idea, into } = action.args;
      if (idea === into) return fail('an idea cannot be merged into itself');
      const source = files.read(readme(idea));
      const target = files.read(readme(into));
      const sourceMeta = files.meta(idea);
      const targetMeta = files.meta(into);
      if (!source || !sourceMeta) return fail(`no idea "${idea}"`);
      if (!target || !targetMeta) return fail(`no idea "${into}"`);
      // Nothing is destroyed: the source's text is carried into the target under a section of its
      // own, the target records what it combines, and the source is archived where it is.
      const merged = replaceSection(target.text, `Merged from ${idea}`, bodyOf(source.text).trim());
      const links = [...targetMeta.relationships.filter((r) => r.target !== idea), { target: idea, type: 'combines' }];
      let targetText = setFrontmatterField(merged, 'relationships', JSON.stringify(links));
      targetText = setFrontmatterField(targetText, 'updated', today);
      let sourceText = setFrontmatterField(source.text, 'stage', 'ARCHIVE');
      sourceText = setFrontmatterField(sourceText, 'updated', today);
      return {
        ok: true,
        ops: [
          { kind: 'write', path: readme(into), content: targetText, expected: target.hash },
          { kind: 'write', path: readme(idea), content: sourceText, expected: source.hash },
        ],
        read: [],
        detail: `${idea} merged into ${into}`,
      };
    }
    case 'rename_idea': {
      const { idea, to } = action.args;
      const all = files.listFiles(ideaFolder(idea));
      if (!all || !files.read(readme(idea))) return fail(`no idea "${idea}"`);
      if (files.listFiles(ideaFolder(to)) !== null) return fail(`${ideaFolder(to)} already exists`);
      const ops: FileOp[] = [];
      const oldReadme = files.read(readme(idea)) as { text: string; hash: string };
      for (const path of all) {
        if (path === readme(idea)) continue;
        const current = files.read(path);
        if (!current) continue;
        const dest = `${ideaFolder(to)}/${path.slice(ideaFolder(idea).length + 1)}`;
        ops.push({ kind: 'move', from: path, to: dest, expected: current.hash });
      }
      // The README is written anew under its new name (saying that name), then the old one removed.
      const renamed = setFrontmatterField(oldReadme.text, 'slug', JSON.stringify(to));
      ops.push({ kind: 'write', path: readme(to), content: renamed, expected: null });
      ops.push({ kind: 'remove', path: readme(idea), expected: oldReadme.hash });
      return { ok: true, ops, read: [], detail: `${ideaFolder(idea)} → ${ideaFolder(to)}` };
    }
  }
}
