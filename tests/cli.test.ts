import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../core/node/cli/main';
import { cli, cliJson } from './helpers/run-cli';
import { tempWorkspace } from './helpers/temp-workspace';

let root: string;
let cleanup: () => void;
let ws: string;

beforeAll(() => {
  ({ root, cleanup } = tempWorkspace('crucible-cli-'));
  ws = join(root, 'lab');
});
afterAll(() => cleanup());

interface ListJson {
  ideas: { slug: string; title: string; type: string; stage: string; tags: string[]; updated: string; stale: boolean }[];
  errors: { file: string; reason: string }[];
}

// Each step runs the CLI as a real process (a TypeScript start-up of a few seconds on a busy 2-core
// machine), and some tests run a dozen of them.
describe('the CLI on a fresh workspace', { timeout: 120_000 }, () => {
  it('init creates a living library and refuses to run twice', () => {
    const created = cliJson<{ ideas: number; errors: unknown[] }>(['init', ws]);
    expect(created.ideas).toBeGreaterThanOrEqual(6);
    expect(created.errors).toEqual([]);
    expect(existsSync(join(ws, 'ideas/_index.md'))).toBe(true);
    const again = cli(['init', ws]);
    expect([again.code, again.stderr.trim()]).toEqual([1, `error: ${ws} already holds ideas; init never overwrites a workspace`]);
  });

  it('sync --json prints the promised shape', () => {
    const report = cliJson<Record<string, unknown>>(['sync', '--workspace', ws]);
    expect(Object.keys(report).sort()).toEqual(['added', 'changed', 'durationMs', 'errors', 'files', 'ideas', 'removed']);
    expect(report).toMatchObject({ added: 0, changed: 0, removed: 0, errors: [] });
    expect(typeof report.durationMs).toBe('number');
  });

  it('captures from text and from a file, moves a stage, filters, searches and shows', () => {
    const captured = cliJson<{ slug: string; path: string }>([
      'capture', '--workspace', ws, '--title', 'Tidal kites', '--text', 'Kites that harvest **tidal** currents.', '--tags', 'energy,ocean',
    ]);
    expect(captured).toMatchObject({ slug: 'tidal-kites', path: 'ideas/tidal-kites/README.md' });

    const dropped = join(root, 'dropped-note.md');
    writeFileSync(dropped, '---\ntags: [ocean]\nowner: me\n---\n# Kelp farming at scale\n\nSeaweed as feed and fuel.\n');
    const fromFile = cliJson<{ slug: string }>(['capture', '--workspace', ws, '--file', dropped]);
    expect(fromFile.slug).toBe('kelp-farming-at-scale');
    const written = readFileSync(join(ws, 'ideas/kelp-farming-at-scale/README.md'), 'utf8');
    expect(written).toMatch(/^---\nid: "01[0-9A-Z]{24}"\nslug: "kelp-farming-at-scale"\ntitle: "Kelp farming at scale"\ntype: "research"\nstage: "SPARK"\ntags: \["ocean"\]\n/);
    expect(written).toContain('owner: "me"');
    expect(written).toContain('\n# Kelp farming at scale\n\nSeaweed as feed and fuel.\n');

    const staged = cliJson<{ idea: { stage: string } }>(['stage', 'tidal-kites', 'PROTOTYPE', '--workspace', ws]);
    expect(staged.idea.stage).toBe('PROTOTYPE');

    const list = cliJson<ListJson>(['list', '--workspace', ws, '--tag', 'ocean']);
    expect(list.ideas.map((i) => [i.slug, i.stage, i.tags])).toEqual([
      ['kelp-farming-at-scale', 'SPARK', ['ocean']],
      ['tidal-kites', 'PROTOTYPE', ['energy', 'ocean']],
    ]);
    expect(cliJson<ListJson>(['list', '--workspace', ws, '--stage', 'prototype']).ideas.map((i) => i.slug)).toContain('tidal-kites');

    const hits = cliJson<{ hits: { slug: string }[] }>(['search', 'tidal current', '--workspace', ws]);
    expect(hits.hits.map((h) => h.slug)).toEqual(['tidal-kites']);

    const shown = cli(['show', 'tidal-kites', '--workspace', ws]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('Kites that harvest **tidal** currents.');

    const attached = join(root, 'sketch.png');
    writeFileSync(attached, Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    expect(cliJson(['attach', 'tidal-kites', attached, '--workspace', ws])).toEqual({ path: 'ideas/tidal-kites/assets/sketch.png' });
    expect(cliJson(['attach', 'tidal-kites', attached, '--workspace', ws])).toEqual({ path: 'ideas/tidal-kites/assets/sketch-2.png' });

    expect(readFileSync(join(ws, 'ideas/_index.md'), 'utf8')).toContain('| [Tidal kites](tidal-kites/README.md) | research | PROTOTYPE |');
  });

  it('shows files that could not be indexed in sync and list, and goes on', () => {
    writeFileSync(join(ws, 'ideas/tidal-kites/development.md'), '---\nkind: [\n---\n');
    const list = cli(['list', '--workspace', ws]);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain('1 file could not be indexed (the rest is):');
    expect(list.stdout).toContain('ideas/tidal-kites/development.md: bad YAML frontmatter at line 3');
    const report = cliJson<{ errors: { file: string }[] }>(['sync', '--workspace', ws]);
    expect(report.errors.map((e) => e.file)).toEqual(['ideas/tidal-kites/development.md']);
  });
});

describe('bad input', () => {
  it('exits 1 with one line and no stack trace', () => {
    const cases: [string[], string][] = [
      [['frobnicate'], 'unknown command "frobnicate" (run with --help to see the commands)'],
      [['list', '--workspace', '/no/such/place'], 'error: no workspace at /no/such/place (create one with: npm run cli -- init /no/such/place)'],
      [['list', '--bogus'], 'error: list: unknown option --bogus (see --help)'],
      [['stage', 'tidal-kites', 'DAYDREAM', '--workspace', 'WS'], 'error: unknown stage "DAYDREAM" (one of SPARK, CLARIFY, RESEARCH, IDEATE, EVALUATE, VALIDATE, DESIGN, PROTOTYPE, TEST, REFINE, BUILD, LAUNCH, GROW, MAINTAIN, PIVOT, PAUSE, SUNSET, ARCHIVE, ABANDONED)'],
      [['show', 'nothing-here', '--workspace', 'WS'], 'error: no idea "nothing-here" (see: npm run cli -- list)'],
      [['capture', '--workspace', 'WS'], 'error: capture: give either --title (with optional --text) or --file'],
      [['capture', '--workspace', 'WS', '--file', '/no/file.md'], 'error: no file at /no/file.md'],
      [['list', '--workspace', 'WS', '--type', 'poetry'], 'error: unknown idea type "poetry" (one of business, creative, technical, personal, research)'],
      [['search', '--workspace', 'WS'], 'error: search: missing QUERY (usage: search "QUERY" --workspace DIR [--json])'],
    ];
    for (const [args, message] of cases) {
      const run = cli(args.map((a) => (a === 'WS' ? ws : a)));
      expect({ args, code: run.code, stderr: run.stderr.trim() }).toEqual({ args, code: 1, stderr: message });
    }
    // A dozen CLI processes one after another: on a busy machine that is more than the default 30 s.
  }, 120_000);

  it('has --help for every command', async () => {
    const overview = cli(['--help']);
    expect(overview.code).toBe(0);
    const names = [...overview.stdout.matchAll(/^ {2}(\S+)/gm)].map((m) => m[1] as string);
    expect(names).toEqual(expect.arrayContaining(['init', 'sync', 'watch', 'capture', 'attach', 'list', 'show', 'search', 'stage', 'index']));
    // In-process for the rest: the same code path, without a process start per command.
    for (const name of names) {
      let out = '';
      const code = await runCli([name, '--help'], { out: (t) => (out += t), err: (t) => (out += t), untilStopped: async () => {} });
      expect([name, code, out.includes(`usage: npm run cli -- ${name}`)]).toEqual([name, 0, true]);
    }
  });
});
