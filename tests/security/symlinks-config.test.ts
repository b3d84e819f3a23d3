import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cli } from '../helpers/run-cli';
import { readme, tempWorkspace, writeFile } from '../helpers/temp-workspace';

// Issue 16, item 2, for the workspace's own configuration and the files export reads: a persona,
// taxonomy or template file, or a synthesis, that is a link to a file outside is refused by path.

const SECRET = 'quokkasecret';

let root: string;
let cleanup: () => void;
let outside: string;
beforeEach(() => {
  ({ root, cleanup } = tempWorkspace('crucible-config-links-'));
  outside = mkdtempSync(join(tmpdir(), 'crucible-outside-'));
  writeFile(root, 'ideas/solar/README.md', readme('Solar'));
});
afterEach(() => {
  cleanup();
  rmSync(outside, { recursive: true, force: true });
});

describe('configuration and exported files that are links are refused by path', { timeout: 120_000 }, () => {
  it('a linked persona is reported and not loaded; a linked template stops with its path', () => {
    writeFile(outside, 'spy.md', `---\nid: spy\nname: Spy ${SECRET}\nrole: debater\n---\nYou are ${SECRET}.\n`);
    writeFile(root, 'personas/.keep', '');
    symlinkSync(join(outside, 'spy.md'), join(root, 'personas/spy.md'));
    const personas = cli(['personas', '--workspace', root, '--json']);
    const errors = cli(['errors', '--workspace', root, '--json']);
    expect({
      personas: [personas.code, personas.stdout.includes(SECRET)],
      errors: [errors.code, JSON.parse(errors.stdout).errors],
    }).toEqual({
      personas: [0, false],
      errors: [
        0,
        [
          {
            file: join(root, 'personas/spy.md'),
            reason: 'is a symbolic link; Crucible does not follow links (put the file itself here)',
            source: 'persona',
          },
        ],
      ],
    });

    writeFile(outside, 'idea.md', `---\ntitle: "{{title}}"\n---\n${SECRET}\n`);
    writeFile(root, 'templates/.keep', '');
    symlinkSync(join(outside, 'idea.md'), join(root, 'templates/idea.md'));
    const capture = cli(['capture', '--workspace', root, '--title', 'Tidal kites']);
    expect([capture.code, capture.stderr.trim()]).toEqual([
      1,
      `error: the taxonomy or templates are invalid:\n  ${join(root, 'templates/idea.md')}: cannot be read (templates/idea.md is a symbolic link or lies under one; Crucible does not follow links)`,
    ]);
  });

  it('a linked settings.md or models.md is listed as a problem and never read', () => {
    writeFile(outside, 'settings.md', `---\nprovider: anthropic\nbudget_usd: 3\n---\n${SECRET}\n`);
    writeFile(outside, 'models.md', `---\nprices:\n  ${SECRET}: { input: 1, output: 2 }\n---\n`);
    symlinkSync(join(outside, 'settings.md'), join(root, 'settings.md'));
    symlinkSync(join(outside, 'models.md'), join(root, 'models.md'));
    const run = cli(['settings', 'show', '--workspace', root, '--json']);
    const shown = JSON.parse(run.stdout) as { provider: string; problems: string[] };
    expect({
      code: run.code,
      leaked: run.stdout.includes(SECRET),
      provider: shown.provider,
      problems: shown.problems,
    }).toEqual({
      code: 0,
      leaked: false,
      provider: 'simulated',
      problems: [
        'settings.md: settings.md is a symbolic link or lies under one; Crucible does not follow links',
        'models.md: models.md is a symbolic link or lies under one; Crucible does not follow links',
      ],
    });
  });

  it('export refuses a synthesis that is a link, naming it, and writes nothing', () => {
    writeFile(outside, 'synthesis.md', `# Synthesis\n\n${SECRET}\n`);
    symlinkSync(join(outside, 'synthesis.md'), join(root, 'ideas/solar/synthesis.md'));
    const out = join(root, 'exported.md');
    const run = cli(['export', 'solar', '--format', 'md', '--out', out, '--workspace', root]);
    expect({ code: run.code, stderr: run.stderr.trim(), written: existsSync(out) }).toEqual({
      code: 1,
      stderr: 'error: ideas/solar/synthesis.md is a symbolic link or lies under one; Crucible does not follow links',
      written: false,
    });
  });
});
