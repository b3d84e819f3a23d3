import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempWorkspace, writeFile } from '../../../tests/helpers/temp-workspace';
import { ModelsConfigError } from '../../llm/prices';
import { loadModelsConfig } from './prices-loader';

let root: string;
let cleanup: () => void;
beforeEach(() => ({ root, cleanup } = tempWorkspace()));
afterEach(() => cleanup());

function problemsOf(run: () => unknown): string[] {
  try {
    run();
  } catch (error) {
    if (error instanceof ModelsConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected a ModelsConfigError');
}

describe('the built-in model table', () => {
  it('maps the Anthropic tiers to Haiku 4.5, Sonnet 4.6 and Opus 4.6 at their list prices, local models at 0', () => {
    const config = loadModelsConfig(null);
    expect(config.providers.anthropic?.tiers).toEqual({
      fast: 'claude-haiku-4-5',
      standard: 'claude-sonnet-4-6',
      deep: 'claude-opus-4-6',
    });
    expect(config.prices).toMatchObject({
      'claude-haiku-4-5': { inputPerMTok: 1, outputPerMTok: 5, cacheWritePerMTok: 1.25, cacheReadPerMTok: 0.1 },
      'claude-sonnet-4-5': { inputPerMTok: 3, outputPerMTok: 15, cacheWritePerMTok: 3.75, cacheReadPerMTok: 0.3 },
      'claude-opus-4-5': { inputPerMTok: 5, outputPerMTok: 25, cacheWritePerMTok: 6.25, cacheReadPerMTok: 0.5 },
    });
    const local = config.providers['openai-compatible'];
    expect(local?.baseURL).toBe('http://127.0.0.1:11434/v1');
    for (const model of Object.values(local?.tiers ?? {})) {
      expect(config.prices[model]).toEqual({
        inputPerMTok: 0,
        outputPerMTok: 0,
        cacheWritePerMTok: 0,
        cacheReadPerMTok: 0,
      });
    }
  });
});

describe('a workspace models.md', () => {
  it('replaces a provider and adds prices over the built-in table', () => {
    writeFile(
      root,
      'models.md',
      [
        '---',
        'kind: models',
        'providers:',
        '  anthropic:',
        '    tiers: { fast: claude-haiku-4-5, standard: claude-haiku-4-5, deep: claude-opus-4-6 }',
        'prices:',
        '  claude-opus-4-6: { inputPerMTok: 5, outputPerMTok: 25, cacheWritePerMTok: 6.25, cacheReadPerMTok: 0.5 }',
        '---',
        'Cheaper debates.',
      ].join('\n'),
    );
    const config = loadModelsConfig(root);
    expect(config.providers.anthropic?.tiers.deep).toBe('claude-opus-4-6');
    expect(config.providers['openai-compatible']?.tiers.fast).toBe('qwen2.5:7b');
    expect(Object.keys(config.prices)).toContain('claude-sonnet-4-5');
  });

  it('is reported with its path and the line of bad YAML, or the field of a bad value', () => {
    writeFile(root, 'models.md', '---\nkind: models\nprices: [\n---\n');
    const yaml = problemsOf(() => loadModelsConfig(root));
    writeFile(root, 'models.md', '---\nkind: models\nprices:\n  claude-haiku-4-5: { inputPerMTok: "1" }\n---\n');
    const field = problemsOf(() => loadModelsConfig(root));
    const file = `${root}/models.md`;
    expect(yaml).toEqual([expect.stringMatching(new RegExp(`^${file}: bad YAML frontmatter at line \\d+`))]);
    expect(field).toEqual(
      expect.arrayContaining([
        `${file}: prices.claude-haiku-4-5.inputPerMTok: Invalid input: expected number, received string`,
        expect.stringMatching(new RegExp(`^${file}: prices\\.claude-haiku-4-5\\.outputPerMTok: `)),
      ]),
    );
  });
});
