import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  buildModelsConfig,
  type ModelPrice,
  type ModelsConfig,
  ModelsConfigError,
  type ProviderModels,
  type Tiers,
} from '../../llm/prices';
import { appRoot } from '../app-root';
import { readForEdit, safeWrite, type WriteOutcome } from '../fs/atomic-write';
import { readTextInside } from '../fs/read-inside';
import { BUILT_IN_MODELS, MODELS_FILE } from '../llm/prices-loader';
import { parseMarkdown } from '../markdown';
import { UserError } from '../workspace/workspace';
import { setFrontmatterBlock, yamlFlow, yamlString } from './frontmatter-block';

/**
 * The model table as the settings page sees and edits it: the built-in `resources/models.md` with
 * the workspace's `models.md` over it (core/node/llm/prices-loader.ts reads the same two files for
 * every model call). Edits go to the workspace's file only; the app's own table is never written.
 */
export interface ModelsState {
  /** The table in force (the built-in one alone when the workspace's is broken). */
  config: ModelsConfig;
  /** What the workspace's file names (its providers replace the built-in ones whole). */
  own: { providers: Record<string, ProviderModels>; prices: Record<string, ModelPrice> };
  exists: boolean;
  problems: string[];
}

function builtInData(): unknown {
  return parseMarkdown(readFileSync(join(appRoot(), BUILT_IN_MODELS), 'utf8')).data;
}

function ownData(root: string): { text: string | null; data: Record<string, unknown> | null; problem: string | null } {
  const abs = join(root, MODELS_FILE);
  if (!existsSync(abs)) return { text: null, data: null, problem: null };
  let text: string;
  try {
    // Read under the link rule: a models.md that is a link is a problem listed, not followed.
    text = readTextInside(root, MODELS_FILE);
  } catch (error) {
    return { text: '', data: null, problem: `${MODELS_FILE}: ${(error as Error).message}` };
  }
  try {
    return { text, data: parseMarkdown(text).data, problem: null };
  } catch (error) {
    return { text, data: null, problem: `${MODELS_FILE}: ${(error as Error).message}` };
  }
}

export function readModels(root: string): ModelsState {
  const builtIn = { file: BUILT_IN_MODELS, data: builtInData() };
  const base = buildModelsConfig(builtIn);
  const { text, data, problem } = ownData(root);
  const empty = { providers: {}, prices: {} };
  if (text === null) return { config: base, own: empty, exists: false, problems: [] };
  if (problem || !data)
    return { config: base, own: empty, exists: true, problems: [problem ?? `${MODELS_FILE}: unreadable`] };
  try {
    const config = buildModelsConfig(builtIn, { file: MODELS_FILE, data });
    return {
      config,
      own: {
        providers: (data.providers as Record<string, ProviderModels> | undefined) ?? {},
        prices: (data.prices as Record<string, ModelPrice> | undefined) ?? {},
      },
      exists: true,
      problems: [],
    };
  } catch (error) {
    const problems = error instanceof ModelsConfigError ? error.problems : [String(error)];
    return { config: base, own: empty, exists: true, problems };
  }
}

export interface ModelsPatch {
  tiers?: { provider: string; fast?: string; standard?: string; deep?: string }[];
  /** `null` puts the built-in address back. */
  openaiBaseUrl?: string | null;
  prices?: ({ model: string } & ModelPrice)[];
  removePrices?: string[];
}

const TEMPLATE = `---
kind: models
---
# Models and prices for this workspace

Layered over Crucible's built-in table (\`resources/models.md\` in the app, which explains every
field): each provider named here replaces the built-in one as a whole, and each price is added or
replaces the built-in one. The Settings page writes the frontmatter above; this text is yours.
`;

function providerLines(providers: Record<string, ProviderModels>): string[] {
  return Object.entries(providers).flatMap(([name, p]) => [
    `  ${name}:`,
    ...(p.baseURL ? [`    baseURL: ${yamlString(p.baseURL)}`] : []),
    `    tiers: ${yamlFlow({ fast: p.tiers.fast, standard: p.tiers.standard, deep: p.tiers.deep })}`,
  ]);
}

function priceLines(prices: Record<string, ModelPrice>): string[] {
  return Object.entries(prices)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(
      ([model, p]) =>
        `  ${yamlString(model)}: ${yamlFlow({
          inputPerMTok: p.inputPerMTok,
          outputPerMTok: p.outputPerMTok,
          cacheWritePerMTok: p.cacheWritePerMTok,
          cacheReadPerMTok: p.cacheReadPerMTok,
        })}`,
    );
}

/**
 * Applies a change to the workspace's models.md: the `providers:` and `prices:` blocks are written
 * again (comments inside those two blocks are not kept; everything else in the file is), after the
 * result has been checked the way every model call will read it. Refuses a broken file rather than
 * guessing what it meant.
 */
export function writeModels(root: string, patch: ModelsPatch): WriteOutcome | null {
  const touchesProviders = (patch.tiers?.length ?? 0) > 0 || patch.openaiBaseUrl !== undefined;
  const touchesPrices = (patch.prices?.length ?? 0) > 0 || (patch.removePrices?.length ?? 0) > 0;
  if (!touchesProviders && !touchesPrices) return null;
  const state = readModels(root);
  if (state.problems.length > 0 && state.exists) {
    throw new UserError(`${MODELS_FILE} has a problem to fix by hand first: ${state.problems[0]}`);
  }
  const builtIn = buildModelsConfig({ file: BUILT_IN_MODELS, data: builtInData() });
  const providers: Record<string, ProviderModels> = structuredClone(state.own.providers);
  const prices: Record<string, ModelPrice> = structuredClone(state.own.prices);

  // A provider the workspace names replaces the built-in one whole, so it starts from what is in force.
  const ownProvider = (name: string): ProviderModels => {
    const current = providers[name] ?? state.config.providers[name];
    if (!current) throw new UserError(`tiers.provider: no provider "${name}" in the model table`);
    providers[name] = structuredClone(current);
    return providers[name];
  };
  for (const change of patch.tiers ?? []) {
    const target = ownProvider(change.provider);
    const tiers: Tiers = { ...target.tiers };
    if (change.fast) tiers.fast = change.fast;
    if (change.standard) tiers.standard = change.standard;
    if (change.deep) tiers.deep = change.deep;
    target.tiers = tiers;
  }
  if (patch.openaiBaseUrl !== undefined) {
    const target = ownProvider('openai-compatible');
    const fallback = builtIn.providers['openai-compatible']?.baseURL;
    const next = patch.openaiBaseUrl ?? fallback;
    if (next) target.baseURL = next;
    else delete target.baseURL;
  }
  for (const model of patch.removePrices ?? []) {
    if (!(model in prices))
      throw new UserError(`removePrices: "${model}" has no price in this workspace's ${MODELS_FILE}`);
    delete prices[model];
  }
  for (const { model, ...price } of patch.prices ?? []) prices[model] = price;

  const abs = join(root, MODELS_FILE);
  const read = readForEdit(abs);
  const expected = read?.hash ?? null;
  let text = read?.text ?? TEMPLATE;
  if (touchesProviders)
    text = setFrontmatterBlock(text, 'providers', Object.keys(providers).length ? providerLines(providers) : null);
  if (touchesPrices) text = setFrontmatterBlock(text, 'prices', Object.keys(prices).length ? priceLines(prices) : null);
  try {
    buildModelsConfig(
      { file: BUILT_IN_MODELS, data: builtInData() },
      { file: MODELS_FILE, data: parseMarkdown(text).data },
    );
  } catch (error) {
    const problems = error instanceof ModelsConfigError ? error.problems : [(error as Error).message];
    throw new UserError(`not changed: ${problems.join('; ')}`);
  }
  return safeWrite(root, MODELS_FILE, text, expected);
}
