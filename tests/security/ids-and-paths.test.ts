import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type App, createApp } from '../../core/node/app/create-app';
import { cli } from '../helpers/run-cli';
import { readme, writeFile } from '../helpers/temp-workspace';

// Issue 16, item 7: `export:document` with id `../../outside` read a synthesis.md outside the
// workspace. Every id a page or the command line sends that names a file is tried with `../`.

const SECRET = 'SECRET-OUTSIDE-THE-WORKSPACE';
const HOSTILE = '../../outside';

let base: string;
let root: string;
let app: App | null = null;
beforeEach(() => {
  // base/ws is the workspace; base/outside holds what a `../../outside` from ideas/ reaches.
  base = mkdtempSync(join(tmpdir(), 'crucible-ids-'));
  root = join(base, 'ws');
  mkdirSync(join(root, 'ideas'), { recursive: true });
  writeFile(root, 'ideas/real/README.md', readme('Real'));
  for (const name of ['synthesis.md', 'outside.md', 'outside.jsonl', 'outside.run.jsonl', 'outside.json'])
    writeFile(base, `outside/${name}`, `# ${SECRET}\n`);
  mkdirSync(join(base, 'outside', 'evaluations'), { recursive: true });
  mkdirSync(join(base, 'outside', 'debates'), { recursive: true });
});
afterEach(async () => {
  await app?.close();
  app = null;
  rmSync(base, { recursive: true, force: true });
});

/** What a channel answers, as `bad_input field`, `user_error`, or `ANSWERED` (with the secret, when it leaked). */
async function outcome(channel: string, input: unknown): Promise<string> {
  try {
    const value = await (app as App).invoke(channel, input);
    return JSON.stringify(value).includes(SECRET) ? 'LEAKED' : 'ANSWERED';
  } catch (error) {
    const e = error as { code?: string; field?: string; message: string };
    return e.code === 'bad_input' ? `bad_input ${e.field ?? ''}` : `${e.code ?? 'thrown'}: ${e.message}`;
  }
}

describe('ids from a page or the command line name only what they claim to', { timeout: 120_000 }, () => {
  it('every channel that takes a slug or an id refuses `../` as bad input, naming the field', async () => {
    app = await createApp({ workspaceRoot: root, watch: false });
    const calls: [string, unknown][] = [
      ['export:document', { source: 'synthesis', id: HOSTILE, format: 'md' }],
      ['export:document', { source: 'transcript', id: HOSTILE, format: 'html' }],
      ['export:cancel', { source: 'synthesis', id: HOSTILE, format: 'md' }],
      ['ideas:get', { slug: HOSTILE }],
      ['ideas:setStage', { slug: HOSTILE, stage: 'SPARK' }],
      ['ideas:attachUpload', { slug: HOSTILE, name: 'a.txt', contentBase64: 'eA==' }],
      ['ideas:file', { slug: HOSTILE, path: 'synthesis.md' }],
      ['ideas:questions', { slug: HOSTILE }],
      ['ideas:answer', { slug: HOSTILE, number: 1, text: 'x' }],
      ['debates:list', { ideaSlug: HOSTILE }],
      ['debates:get', { id: HOSTILE }],
      ['debates:events', { id: HOSTILE }],
      ['debates:resume', { id: HOSTILE }],
      ['debates:cruxMap', { id: HOSTILE }],
      ['debates:saveCruxLayout', { id: HOSTILE, positions: {} }],
      ['debates:estimate', { ideaSlug: HOSTILE, agents: ['a', 'b'], provider: 'simulated' }],
      ['evaluations:get', { id: HOSTILE }],
      ['evaluations:resume', { id: HOSTILE }],
      ['evaluations:list', { slug: HOSTILE }],
      ['evaluations:estimate', { slug: HOSTILE, provider: 'simulated' }],
      ['transcripts:get', { kind: 'debate', id: HOSTILE }],
      ['transcripts:get', { kind: 'evaluation', id: HOSTILE }],
    ];
    const answers: Record<string, string> = {};
    for (const [channel, input] of calls)
      answers[`${channel} ${JSON.stringify(input)}`] = await outcome(channel, input);
    const expected = Object.fromEntries(
      calls.map(([channel, input]) => {
        const field = channel.startsWith('debates:') && 'ideaSlug' in (input as object) ? 'ideaSlug' : undefined;
        const slugField = 'slug' in (input as object) ? 'slug' : 'id';
        return [`${channel} ${JSON.stringify(input)}`, `bad_input ${field ?? slugField}`];
      }),
    );
    expect(answers).toEqual(expected);
  });

  it('a slug that fits the pattern but is no idea is refused by name, and nothing outside is read', async () => {
    app = await createApp({ workspaceRoot: root, watch: false });
    // `outside` is a plain name: it passes the pattern, and is not an idea of this workspace.
    writeFile(root, 'ideas/ghost/synthesis.md', `# ${SECRET}\n`); // a folder without README is no idea
    expect([
      await outcome('export:document', { source: 'synthesis', id: 'ghost', format: 'md' }),
      await outcome('export:document', { source: 'synthesis', id: 'real', format: 'md' }),
    ]).toEqual([
      'user_error: no idea "ghost" (see: npm run cli -- list)',
      expect.stringMatching(/^user_error: "real" has no synthesis yet/),
    ]);
  });

  it('the CLI refuses the same ids with exit 1 and one line naming them', () => {
    const out = join(base, 'exported.md');
    const runs = {
      export: cli(['export', HOSTILE, '--format', 'md', '--out', out, '--workspace', root]),
      exportDebate: cli(['export', '--debate', HOSTILE, '--format', 'md', '--out', out, '--workspace', root]),
      resumeEvaluation: cli(['evaluate', '--resume', HOSTILE, '--workspace', root]),
      resumeDebate: cli(['resume', HOSTILE, '--workspace', root]),
      showDebate: cli(['debates', 'show', HOSTILE, '--workspace', root]),
      show: cli(['show', HOSTILE, '--workspace', root]),
    };
    const seen = Object.fromEntries(
      Object.entries(runs).map(([name, run]) => [
        name,
        { code: run.code, oneLine: run.stderr.trim().split('\n').length === 1, names: run.stderr.includes(HOSTILE) },
      ]),
    );
    const ok = { code: 1, oneLine: true, names: true };
    expect(seen).toEqual(Object.fromEntries(Object.keys(runs).map((name) => [name, ok])));
    expect(existsSync(out)).toBe(false);
  });
});
