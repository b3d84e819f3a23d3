import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readLedgerFile } from '../../core/node/app/debate-view/ledger';
import { DevelopmentService } from '../../core/node/evaluations/development-service';
import { safeWrite } from '../../core/node/fs/atomic-write';
import { UserError, Workspace } from '../../core/node/workspace/workspace';
import { LEDGER_FILE, upsertEntry } from '../../core/ledger/ledger-md';
import { readme, tempWorkspace, writeFile } from '../helpers/temp-workspace';

// Issue 16, item 4: an edit saved while the app was editing the same file was overwritten with
// `conflict: false` (the app hashed a second read, not the bytes it had edited), and an editor
// saving in place just before the app's rename lost its save. The first tests put the save at those
// exact moments through `node:fs`; the last one races a real second process.

/** Test-only moments inside the app's file access: after a read returns, before a rename runs. */
const at = vi.hoisted(() => ({
  afterRead: null as ((path: string) => void) | null,
  beforeRename: null as ((from: string, to: string) => void) | null,
}));

vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs')>();
  const readFileSync = ((...args: Parameters<typeof real.readFileSync>) => {
    const out = real.readFileSync(...args);
    if (typeof args[0] === 'string') at.afterRead?.(args[0]);
    return out;
  }) as typeof real.readFileSync;
  const renameSync = (from: string, to: string) => {
    at.beforeRename?.(String(from), String(to));
    real.renameSync(from, to);
  };
  return { ...real, default: { ...real, readFileSync, renameSync }, readFileSync, renameSync };
});

/** Saves `text` over `abs` (in place, as many editors do) right after the app's next read of it. */
function saveAfterNextRead(abs: string, text: string): void {
  at.afterRead = (path) => {
    if (path !== abs) return;
    at.afterRead = null;
    writeFileSync(abs, text);
  };
}

let root: string;
let cleanup: () => void;
let ws: Workspace;
beforeEach(() => {
  ({ root, cleanup } = tempWorkspace('crucible-racing-edits-'));
  writeFile(root, 'ideas/alpha/README.md', readme('Alpha'));
  ws = Workspace.open(root);
  ws.sync();
});
afterEach(() => {
  at.afterRead = null;
  at.beforeRename = null;
  ws.close();
  cleanup();
});

/** The file and its conflict copies beside it, by name. */
function folder(rel: string): Record<string, string> {
  const dir = join(root, rel);
  return Object.fromEntries(
    readdirSync(dir)
      .filter((name) => !name.startsWith('.') && name.endsWith('.md'))
      .map((name) => [
        name.replace(/\.conflict-\d{8}T\d{6}Z(-\d+)?\./, '.conflict.'),
        readFileSync(join(dir, name), 'utf8'),
      ]),
  );
}

describe('an edit saved while the app edits the same file is kept', { timeout: 120_000 }, () => {
  const readmeAbs = () => join(root, 'ideas/alpha/README.md');

  it('stage: a save between the read and the write', () => {
    const original = readFileSync(readmeAbs(), 'utf8');
    const researcher = original.replace('Why Alpha matters.', 'Why Alpha matters, edited by hand.');
    saveAfterNextRead(readmeAbs(), researcher);
    const result = ws.setStage('alpha', 'CLARIFY');
    expect({ conflict: result.conflict, files: folder('ideas/alpha') }).toEqual({
      conflict: true,
      files: {
        'README.md': researcher,
        'README.conflict.md': expect.stringMatching(/^---\n[\s\S]*stage: CLARIFY\n[\s\S]*Why Alpha matters\.\n$/),
      },
    });
  });

  it('stage: an in-place save just before the rename', () => {
    const researcher = readFileSync(readmeAbs(), 'utf8').replace('Why Alpha', 'Why, by hand, Alpha');
    at.beforeRename = (from, to) => {
      if (to !== readmeAbs() || !from.includes('crucible-tmp')) return;
      at.beforeRename = null;
      writeFileSync(readmeAbs(), researcher);
    };
    const result = ws.setStage('alpha', 'CLARIFY');
    expect({ conflict: result.conflict, files: folder('ideas/alpha') }).toEqual({
      conflict: true,
      files: {
        'README.md': researcher,
        'README.conflict.md': expect.stringMatching(/stage: CLARIFY\n[\s\S]*Why Alpha matters\.\n$/),
      },
    });
  });

  it('develop --answer: a save between the read and the write', () => {
    const question =
      '### Q: Who has this problem?\n<!-- asked: 2026-01-01; source: ai; gap: problem -->\n_Unanswered._\n';
    writeFile(
      root,
      'ideas/alpha/development.md',
      `---\nkind: development\nidea: "alpha"\n---\n\n# Development\n\n${question}`,
    );
    ws.syncSlugs(['alpha']);
    const abs = join(root, 'ideas/alpha/development.md');
    const researcher = readFileSync(abs, 'utf8').replace('_Unanswered._', 'Answered by hand: clinicians.');
    saveAfterNextRead(abs, researcher);
    const result = new DevelopmentService(ws).answer('alpha', 1, 'Answered in the app: nurses.');
    const files = folder('ideas/alpha');
    expect({
      conflict: result.conflict,
      kept: files['development.md'],
      copy: files['development.conflict.md'],
    }).toEqual({
      conflict: true,
      kept: researcher,
      copy: expect.stringContaining('Answered in the app: nurses.'),
    });
  });

  it('the ledger: a save between the read and the write', () => {
    const abs = join(root, LEDGER_FILE);
    const entry = { outcome: 'survived', resolvedOn: '2026-02-01', recordedAt: null, falsifier: null } as const;
    writeFileSync(abs, upsertEntry(null, { ...entry, key: 'd1/t1/a1', note: 'first' }));
    const researcher = `${readFileSync(abs, 'utf8')}\nA note added by hand.\n`;
    saveAfterNextRead(abs, researcher);
    // What `ledger:resolveFalsifier` does: read the file, add the entry, write against the hash read.
    const file = readLedgerFile(root);
    const written = safeWrite(
      root,
      LEDGER_FILE,
      upsertEntry(file.text, { ...entry, key: 'd1/t1/a2', note: 'second' }),
      file.hash,
    );
    expect({ conflict: written.conflict, kept: readFileSync(abs, 'utf8') }).toEqual({
      conflict: true,
      kept: researcher,
    });
  });
});

/**
 * A second process that edits the README in place every ~2 ms, each time reading it and adding the
 * line `edit <n>` (so a save the app overwrote is missing from every later version); on any input
 * it stops and prints how many edits it made.
 */
const EDITOR = `
const fs = require('node:fs');
const path = process.argv[1];
let n = 0;
let stop = false;
process.stdin.on('data', () => { stop = true; });
(function edit() {
  if (stop) { process.stdout.write(String(n)); process.exit(0); }
  const text = fs.readFileSync(path, 'utf8');
  n++;
  fs.writeFileSync(path, text + 'edit ' + n + '\\n');
  setTimeout(edit, 2);
})();
`;

describe('an editor caught between truncating a README and writing it', () => {
  it("is never taken for the README: a stage change refuses, writes nothing, and the editor's save lands whole", () => {
    const abs = join(root, 'ideas/alpha/README.md');
    const saved = `${readFileSync(abs, 'utf8')}my edit\n`;
    const attempts = ['', saved.slice(0, 25)].map((moment) => {
      // The editor has opened the file with O_TRUNC (and maybe written a first piece) but not finished.
      writeFileSync(abs, moment);
      let error: unknown = null;
      try {
        ws.setStage('alpha', 'CLARIFY');
      } catch (caught) {
        error = caught;
      }
      const left = readFileSync(abs, 'utf8');
      writeFileSync(abs, saved); // …and its write completes.
      return {
        refused: error instanceof UserError ? error.message.replace(/\(.*?\)/, '(…)') : String(error),
        untouched: left === moment,
      };
    });
    expect({ attempts, file: readFileSync(abs, 'utf8') }).toEqual({
      attempts: Array(2).fill({
        refused:
          "ideas/alpha/README.md is not the idea's README just now (…): another program may be writing it; nothing was changed (try again)",
        untouched: true,
      }),
      file: saved,
    });
  });
});

describe('a real editor racing the app', { timeout: 180_000 }, () => {
  it('loses no edit over 200 stage changes, and no README is made from a half-written file', async () => {
    const abs = join(root, 'ideas/alpha/README.md');
    const original = readFileSync(abs, 'utf8');
    const editor = spawn(process.execPath, ['-e', EDITOR, abs], { stdio: ['pipe', 'pipe', 'inherit'] });
    let printed = '';
    editor.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      printed += chunk;
    });
    const exited = new Promise((resolve) => editor.on('exit', resolve));
    while (!readFileSync(abs, 'utf8').includes('edit 3\n')) await new Promise((r) => setTimeout(r, 5));
    const outcomes = { written: 0, conflicts: 0, refused: 0 };
    for (let i = 0; i < 200; i++) {
      try {
        const result = ws.setStage('alpha', i % 2 === 0 ? 'CLARIFY' : 'SPARK');
        outcomes[result.conflict ? 'conflicts' : 'written']++;
      } catch (error) {
        // A README caught half-written by the index may briefly read as another idea.
        if (!(error instanceof UserError)) throw error;
        outcomes.refused++;
        ws.sync();
      }
      // Gives the editor's timer a turn now and then, as a researcher's pauses would.
      if (i % 10 === 9) await new Promise((r) => setTimeout(r, 3));
    }
    editor.stdin.write('stop\n');
    await exited;
    const edits = Number(printed);
    const normal = (text: string) => text.replace(/^stage: .*$/m, 'stage: ?').replace(/^updated: .*$/m, 'updated: ?');
    const expected = normal(original) + Array.from({ length: edits }, (_, i) => `edit ${i + 1}\n`).join('');
    expect({ file: normal(readFileSync(abs, 'utf8')), appWroteSome: outcomes.written > 0 }).toEqual({
      file: expected,
      appWroteSome: true,
    });
  });
});
