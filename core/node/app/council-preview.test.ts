import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { councilWorkspace } from '../../../tests/council/council-workspace';
import type { CouncilFiles } from '../../council/files-port';
import { previewActions } from './council-preview';

// The preview of a proposal: each action planned by the council's own planner against an overlay,
// so later actions see what earlier ones would leave; every file touched with its text before and
// after; and not one byte of the workspace changed.

let root: string;
let files: CouncilFiles;
let cleanup: () => void;
beforeEach(() => {
  ({ root, files, cleanup } = councilWorkspace('crucible-council-preview-'));
});
afterEach(() => cleanup());

/** Every file of the workspace with its bytes, to prove nothing was written. */
function snapshot(dir = root): Map<string, string> {
  const out = new Map<string, string>();
  for (const name of readdirSync(dir)) {
    const abs = join(dir, name);
    if (statSync(abs).isDirectory()) for (const [k, v] of snapshot(abs)) out.set(k, v);
    else out.set(relative(root, abs), readFileSync(abs).toString('base64'));
  }
  return out;
}

const SOIL = 'soil-moisture-lora';
const LICHENS = 'city-lichens-field-guide';

describe('the preview of a proposal', () => {
  it('composes two edits of one README, shows a new note, a rename as moves, and writes nothing', () => {
    const before = snapshot();
    const readme = readFileSync(join(root, 'ideas', SOIL, 'README.md'), 'utf8');
    const edits = previewActions(files, 't-p1', 2, [
      { tool: 'add_tags', args: { idea: SOIL, tags: ['sensors'] } },
      { tool: 'set_stage', args: { idea: SOIL, stage: 'research' } },
      { tool: 'write_note', args: { path: `ideas/${SOIL}/notes/plan.md`, content: '# Plan\n' } },
      { tool: 'read_idea', args: { idea: LICHENS } },
    ]);
    const rename = previewActions(files, 't-p2', 1, [{ tool: 'rename_idea', args: { idea: LICHENS, to: 'lichens' } }]);
    const after = edits.files[0]?.after ?? '';
    expect({
      edits: edits.files.map((f) => [f.path, f.change, f.to, f.actions, f.truncated]),
      readmeBefore: edits.files[0]?.before === readme,
      // Both edits are in the one "after": the second was planned on what the first would leave.
      composed: [/^tags: .*"sensors"/m.test(after), /^stage: RESEARCH$/m.test(after), /^stage: PAUSE$/m.test(after)],
      note: [edits.files[1]?.before, edits.files[1]?.after],
      reads: edits.reads,
      rename: rename.files.map((f) => [f.path, f.change, f.to]),
      failures: [edits.failures, rename.failures],
      untouched: snapshot(),
    }).toEqual({
      edits: [
        [`ideas/${SOIL}/README.md`, 'modified', null, [0, 1], false],
        [`ideas/${SOIL}/notes/plan.md`, 'created', null, [2], false],
      ],
      readmeBefore: true,
      composed: [true, true, false],
      note: [null, '# Plan\n'],
      reads: [`ideas/${LICHENS}/README.md`],
      rename: [
        [`ideas/${LICHENS}/notes/first-survey-walk.md`, 'moved', `ideas/lichens/notes/first-survey-walk.md`],
        ['ideas/lichens/README.md', 'created', null],
        [`ideas/${LICHENS}/README.md`, 'deleted', null],
      ],
      failures: [[], []],
      untouched: before,
    });
  });

  it('stops at the first action that cannot be done, as execution would, keeping what came before', () => {
    const out = previewActions(files, 't-p1', 1, [
      { tool: 'archive_idea', args: { idea: SOIL } },
      { tool: 'write_note', args: { path: `ideas/${LICHENS}/notes/first-survey-walk.md`, content: 'x' } },
      { tool: 'delete_file', args: { path: `ideas/${SOIL}/development.md` } },
    ]);
    expect({
      files: out.files.map((f) => [f.path, f.change, /^stage: ARCHIVE$/m.test(f.after ?? '')]),
      failures: out.failures,
    }).toEqual({
      files: [[`ideas/${SOIL}/README.md`, 'modified', true]],
      failures: [
        {
          action: 1,
          tool: 'write_note',
          detail: `ideas/${LICHENS}/notes/first-survey-walk.md already exists; a note never replaces a file`,
        },
      ],
    });
  });
});
