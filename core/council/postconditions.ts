import { ideaFile } from '../idea/layout';
import type { CouncilAction } from './actions';
import type { CouncilFiles } from './files-port';
import { sectionBody } from './sections';
import type { ActionResult, Postcondition } from './state';

/**
 * What must hold once a proposal has run, per action, read from the files as they are now (not
 * from what the execution reported): the note exists with its text, the section holds its content,
 * the stage is the one asked for, and so on.
 */
function check(
  action: CouncilAction,
  result: ActionResult | undefined,
  files: CouncilFiles,
): { holds: boolean; detail: string } {
  if (!result) return { holds: false, detail: 'not executed' };
  if (!result.ok) return { holds: false, detail: `failed: ${result.detail}` };
  const yes = (detail: string) => ({ holds: true, detail });
  const no = (detail: string) => ({ holds: false, detail });
  const readme = (slug: string) => ideaFile(slug, 'README.md');
  switch (action.tool) {
    case 'read_idea':
    case 'list_ideas':
    case 'search':
    case 'read_file':
      return yes('read');
    case 'write_note': {
      const text = files.read(action.args.path)?.text;
      if (text === undefined) return no(`${action.args.path} does not exist`);
      return text === action.args.content
        ? yes(`${action.args.path} exists with the proposed text`)
        : no(`${action.args.path} holds other text`);
    }
    case 'edit_section': {
      const text = files.read(action.args.path)?.text;
      const body = text === undefined ? null : sectionBody(text, action.args.section);
      if (body === null) return no(`${action.args.path} has no section "${action.args.section}"`);
      return body === action.args.content.trim()
        ? yes(`section "${action.args.section}" holds the proposed text`)
        : no(`section "${action.args.section}" holds other text`);
    }
    case 'add_tags': {
      const tags = files.meta(action.args.idea)?.tags ?? [];
      const missing = action.args.tags.filter((t) => !tags.includes(t));
      return missing.length === 0 ? yes('every tag is there') : no(`missing tags: ${missing.join(', ')}`);
    }
    case 'link_ideas': {
      const links = files.meta(action.args.idea)?.relationships ?? [];
      return links.some((r) => r.target === action.args.other && r.type === action.args.kind)
        ? yes(`${action.args.idea} ${action.args.kind} ${action.args.other}`)
        : no('the link is missing');
    }
    case 'set_stage':
    case 'archive_idea': {
      const want = action.tool === 'archive_idea' ? 'ARCHIVE' : action.args.stage.toUpperCase();
      const stage = files.meta(action.args.idea)?.stage?.toUpperCase() ?? null;
      return stage === want ? yes(`stage equals ${want}`) : no(`stage is ${stage ?? 'missing'}, not ${want}`);
    }
    case 'capture_idea': {
      const created = result.changes.find((c) => c.change === 'created')?.path;
      return created && files.read(created) ? yes(`${created} exists`) : no('the new idea is missing');
    }
    case 'delete_file':
      return files.read(action.args.path) === null
        ? yes(`${action.args.path} is gone`)
        : no(`${action.args.path} is still there`);
    case 'merge_ideas': {
      const into = files.read(readme(action.args.into))?.text ?? '';
      const stage = files.meta(action.args.idea)?.stage?.toUpperCase();
      return sectionBody(into, `Merged from ${action.args.idea}`) !== null && stage === 'ARCHIVE'
        ? yes(`${action.args.into} holds ${action.args.idea}, which is archived`)
        : no('the merge is incomplete');
    }
    case 'rename_idea':
      return files.read(readme(action.args.to)) && !files.read(readme(action.args.idea))
        ? yes(`the idea is at ideas/${action.args.to}`)
        : no('the idea is not at its new name');
  }
}

export function checkPostconditions(
  actions: readonly CouncilAction[],
  results: readonly ActionResult[],
  files: CouncilFiles,
): Postcondition[] {
  return actions.map((action, i) => ({
    action: i,
    ...check(
      action,
      results.find((r) => r.action === i),
      files,
    ),
  }));
}
