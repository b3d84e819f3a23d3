import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempWorkspace } from '../../../tests/helpers/temp-workspace';
import { appRoot } from '../app-root';
import { parseMarkdown } from '../markdown';
import { Workspace } from '../workspace/workspace';
import { CaptureService, type CaptureSource } from './capture-service';

// The capture orchestrator on the sample workspace (the repository's ideas/).

const SOLAR_SUMMARY =
  "A member-owned cooperative that puts solar panels on the neighbourhood's large flat roofs, sells the power to the buildings at a discount, and pays members a modest return.";
const text = (title: string, body: string): CaptureSource => ({ kind: 'text', title, text: body });
const REPEAT = text('Solar on the big roofs', SOLAR_SUMMARY);
const NEW_TOPIC = text(
  'Sourdough by bicycle',
  'A weekly sourdough bread subscription delivered by bicycle to offices in the old town.',
);
const BORDERLINE = text(
  'Batteries for the co-op',
  'Store the power from the school roof in a shared battery so members can use it in the evening.',
);

let ws: Workspace;
let cleanup: () => void;
let scratch: string;
beforeEach(() => {
  const temp = tempWorkspace('crucible-capture-');
  cleanup = temp.cleanup;
  scratch = temp.root;
  cpSync(join(appRoot(), 'ideas'), join(temp.root, 'ideas'), { recursive: true });
  ws = Workspace.open(temp.root);
  ws.sync();
});
afterEach(() => {
  ws.close();
  cleanup();
});

const readme = (slug: string) => readFileSync(join(ws.root, 'ideas', slug, 'README.md'), 'utf8');

describe('classifying a capture', () => {
  it('offers a repeat of an idea’s summary as EXISTING, a new topic as NEW, and a borderline text as AMBIGUOUS', async () => {
    const service = new CaptureService(ws);
    const seen = [];
    for (const source of [REPEAT, NEW_TOPIC, BORDERLINE]) {
      const { classification: c } = await service.classify(source);
      seen.push([c.decision, c.slug, c.candidates.map((x) => x.slug), c.inspiredBy, c.by]);
    }
    expect(seen).toEqual([
      ['EXISTING', 'community-solar-coop', expect.arrayContaining(['community-solar-coop']), null, 'lexical'],
      ['NEW', null, expect.any(Array), null, 'lexical'],
      ['AMBIGUOUS', null, ['community-solar-coop', 'soil-moisture-lora'], 'community-solar-coop', 'lexical'],
    ]);
  });

  it('decides the same through the simulated model, which is asked with the best candidates', async () => {
    const service = new CaptureService(ws);
    const decided = async (provider?: 'simulated') =>
      Promise.all(
        [REPEAT, NEW_TOPIC, BORDERLINE].map(async (s) => {
          const { classification: c } = await service.classify(s, provider ? { provider } : {});
          return [c.decision, c.slug, c.candidates.map((x) => x.slug), c.inspiredBy];
        }),
      );
    const modelled = await service.classify(BORDERLINE, { provider: 'simulated' });
    expect({ model: await decided('simulated'), by: modelled.classification.by }).toEqual({
      model: await decided(),
      by: 'model',
    });
  });
});

describe('the model’s call', () => {
  it('is refused before it is made when its worst case is over what a capture may spend', async () => {
    let calls = 0;
    const costly = new CaptureService(ws, () => ({
      llm: {
        provider: 'costly',
        call: async () => {
          calls++;
          throw new Error('never called');
        },
      },
      estimate: () => 0.12,
      likely: () => 0.01,
    }));
    await expect(costly.classify(BORDERLINE, { provider: 'anthropic' })).rejects.toThrow(
      'placing this capture with a model could cost up to $0.1200, over the $0.05 a capture may spend (see the tiers in models.md); capture it without --provider',
    );
    expect(calls).toBe(0);
  });
});

describe('placing a capture', () => {
  it('adds an EXISTING capture to the end of the README, changing nothing above it, and knows it the second time', async () => {
    const service = new CaptureService(ws);
    const before = readme('community-solar-coop');
    const placed = service.place(REPEAT, { as: 'existing', slug: 'community-solar-coop' });
    const after = readme('community-solar-coop');
    const today = new Date().toISOString().slice(0, 10);
    const again = await service.classify(REPEAT);
    const twice = service.place(REPEAT, { as: 'existing', slug: 'community-solar-coop' });
    expect({
      placed: [placed.slug, placed.path, placed.conflict, placed.written],
      // Only `updated:` moved; the rest of the researcher's text is there, byte for byte, before the addition.
      kept: after.startsWith(before.replace(/^updated: .*$/m, `updated: ${today}`).trimEnd()),
      added: after.slice(before.trimEnd().length + 1).replace(/[0-9a-f]{16}/, 'ID'),
      again: [again.classification.decision, again.classification.duplicateOf, again.classification.by],
      twice: [twice.written, readme('community-solar-coop') === after],
    }).toEqual({
      placed: ['community-solar-coop', 'ideas/community-solar-coop/README.md', false, true],
      kept: true,
      added: `\n## Captured ${today}: Solar on the big roofs\n\n<!-- captured: ID -->\n${SOLAR_SUMMARY}\n`,
      again: ['EXISTING', 'community-solar-coop', 'identity'],
      twice: [false, true],
    });
  });

  it('makes a new idea linked inspired_by the one chosen, and recognises a captured file the second time', async () => {
    const service = new CaptureService(ws);
    const placed = service.place(BORDERLINE, { as: 'inspired', slug: 'community-solar-coop' });
    const file = join(scratch, 'sourdough.md');
    writeFileSync(file, '---\ntags: [food]\n---\n# Sourdough by bicycle\n\nA weekly sourdough bread subscription.\n');
    const fromFile = service.place({ kind: 'file', path: file }, { as: 'new' });
    const again = await service.classify({ kind: 'file', path: file });
    expect({
      links: parseMarkdown(readme(placed.slug)).data.relationships,
      listed: ws.show(placed.slug).relationships.map((r) => [r.type, r.target]),
      file: [fromFile.slug, parseMarkdown(readme(fromFile.slug)).data.tags],
      again: [again.classification.decision, again.classification.duplicateOf],
    }).toEqual({
      links: [
        { target: 'community-solar-coop', type: 'inspired_by', reason: 'captured as a new idea close to this one' },
      ],
      listed: [['inspired_by', 'community-solar-coop']],
      file: ['sourdough-by-bicycle', ['food']],
      again: ['EXISTING', 'sourdough-by-bicycle'],
    });
  });

  it('takes out only the capture’s own title heading, never a line of code or prose that starts with #', () => {
    const added = (title: string, body: string, identity: string) => {
      const before = readme('community-solar-coop');
      ws.appendCapture('community-solar-coop', { title, text: body, identity });
      return readme('community-solar-coop').slice(before.trimEnd().length).split('-->\n')[1];
    };
    expect([
      added('Set up', '```sh\n# install deps\nnpm ci\n```\n\n# Set up\n\nRun it.\n', 'a1'),
      added('Underlined', 'Underlined\n==========\n\n# not a title but a line\n', 'a2'),
      added('Marked title', '# **Marked** title\n\nBody.\n', 'a3'),
    ]).toEqual(['```sh\n# install deps\nnpm ci\n```\n\n\nRun it.\n', '# not a title but a line\n', 'Body.\n']);
  });

  it('refuses an idea that is not there, by name', () => {
    const service = new CaptureService(ws);
    expect(() => service.place(REPEAT, { as: 'existing', slug: 'no-such-idea' })).toThrow(
      'no idea "no-such-idea" to add to (see: npm run cli -- list)',
    );
    expect(() => service.place(REPEAT, { as: 'inspired', slug: 'no-such-idea' })).toThrow(
      'no idea "no-such-idea" to link to (see: npm run cli -- list)',
    );
  });
});
