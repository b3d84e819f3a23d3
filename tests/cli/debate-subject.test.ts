import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, cliJson } from '../helpers/run-cli';
import { tempWorkspace } from '../helpers/temp-workspace';

// `debate --idea` says what the agents will read before it runs; `--topic` takes a paragraph, and the
// agents read all of it while the debate is named by its first line.

let root: string;
let cleanup: () => void;
let ws: string;
let idea: { slug: string; title: string; summary: string };

describe('what a debate started from the CLI is about', { timeout: 180_000 }, () => {
  beforeAll(() => {
    ({ root, cleanup } = tempWorkspace('crucible-cli-subject-'));
    ws = join(root, 'lab');
    cliJson(['init', ws]);
    idea = cliJson<{ ideas: { slug: string; title: string; summary: string }[] }>(['list', '--workspace', ws])
      .ideas[0] as typeof idea;
  });
  afterAll(() => cleanup());

  it('shows the idea the agents read, and sends a paragraph topic whole', () => {
    const onIdea = cli([
      'debate',
      '--workspace',
      ws,
      '--idea',
      idea.slug,
      '--agents',
      'ethicist,field-researcher',
      '--provider',
      'simulated',
    ]);
    const paragraph =
      'Should the allotment buy its own LoRaWAN gateway?\nThe community gateway is 1.8 km away and dropped to 90% delivery in heavy rain.';
    const run = cliJson<{ id: string }>([
      'debate',
      '--workspace',
      ws,
      '--topic',
      paragraph,
      '--agents',
      'ethicist,field-researcher',
      '--provider',
      'simulated',
    ]);
    const shown = cliJson<{ header: { topic: string; subject?: unknown } }>([
      'debates',
      'show',
      run.id,
      '--workspace',
      ws,
    ]);
    expect({
      code: onIdea.code,
      shown: onIdea.stderr.split('\n').slice(0, 2),
      topic: shown.header.topic,
      subject: shown.header.subject,
    }).toEqual({
      code: 0,
      shown: [`Debating the idea ${idea.slug}: ${idea.title}`, `  Summary: ${idea.summary}`],
      topic: 'Should the allotment buy its own LoRaWAN gateway?',
      subject: { kind: 'topic', text: paragraph },
    });
  });
});
