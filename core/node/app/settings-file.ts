import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { PROVIDERS, SIMULATED_PACES, type SettingsLimits, type SimulatedPace } from '../../contract';
import { setFrontmatterField } from '../../idea/frontmatter-edit';
import { DEFAULT_LIMITS } from '../debates/debate-service';
import type { ProviderName } from '../debates/providers';
import { DEFAULT_EVALUATION_BUDGET } from '../evaluations/evaluation-service';
import { readForEdit, safeWrite, type WriteOutcome } from '../fs/atomic-write';
import { readTextInside } from '../fs/read-inside';
import { MarkdownError, parseMarkdown } from '../markdown';
import { UserError } from '../workspace/workspace';

/**
 * The researcher's settings for one workspace: `<workspace>/settings.md`, a markdown file with a
 * YAML frontmatter like `models.md` beside it, so it is readable, versionable with the ideas, and
 * editable by hand. (`.crucible/` holds only what can be rebuilt from the folder, so it is no
 * place for choices.) API keys never go here: they live in the key store.
 *
 * ```yaml
 * kind: settings
 * provider: simulated          # simulated | anthropic | openai
 * debateBudgetUsd: 2           # 0: no cap
 * evaluationBudgetUsd: 3
 * debateConcurrency: 4
 * evaluationConcurrency: 6
 * simulatedPace: paced         # paced | instant (how simulated runs unfold in the app)
 * ```
 *
 * Every field is optional; a field that is missing or wrong takes its default, and a wrong one is
 * reported (file and field) on the settings page.
 */
export const SETTINGS_FILE = 'settings.md';

/** What debates and evaluations use when the settings file does not say. */
export const DEFAULT_SETTINGS_LIMITS: SettingsLimits = {
  debateBudgetUsd: DEFAULT_LIMITS.budgetUsd,
  evaluationBudgetUsd: DEFAULT_EVALUATION_BUDGET,
  debateConcurrency: DEFAULT_LIMITS.concurrency,
  // The evaluation driver's own default (core/node/evaluations/evaluation-service.ts).
  evaluationConcurrency: 6,
};

export interface WorkspaceSettings {
  provider: ProviderName;
  limits: SettingsLimits;
  simulatedPace: SimulatedPace;
  /** Which of `limits` the file sets (the others are defaults). */
  set: Partial<Record<keyof SettingsLimits | 'provider' | 'simulatedPace', true>>;
  exists: boolean;
  problems: string[];
}

const LIMIT_KEYS = Object.keys(DEFAULT_SETTINGS_LIMITS) as (keyof SettingsLimits)[];
const OTHER_KEYS = ['kind', 'provider', 'simulatedPace'];

function checkLimit(key: keyof SettingsLimits, value: unknown): string | null {
  if (typeof value !== 'number' || !Number.isFinite(value)) return 'must be a number';
  if (value < 0) return 'must be 0 or more';
  if (key.endsWith('Concurrency') && (!Number.isInteger(value) || value < 1 || value > 32)) {
    return 'must be a whole number from 1 to 32';
  }
  return null;
}

/** Reads settings.md; never throws for what is in the file (problems are listed, defaults apply). */
export function readSettings(root: string): WorkspaceSettings {
  const result: WorkspaceSettings = {
    provider: 'simulated',
    limits: { ...DEFAULT_SETTINGS_LIMITS },
    simulatedPace: 'paced',
    set: {},
    exists: false,
    problems: [],
  };
  const abs = join(root, SETTINGS_FILE);
  if (!existsSync(abs)) return result;
  result.exists = true;
  let data: Record<string, unknown>;
  try {
    // Read under the link rule: a settings.md that is a link is a problem listed, not followed.
    data = parseMarkdown(readTextInside(root, SETTINGS_FILE)).data;
  } catch (error) {
    const why = error instanceof MarkdownError ? error.message : (error as Error).message;
    result.problems.push(`${SETTINGS_FILE}: ${why}`);
    return result;
  }
  if (data.kind !== 'settings') {
    result.problems.push(`${SETTINGS_FILE}: kind: must be "settings" (is this file Crucible's?)`);
    return result;
  }
  for (const key of Object.keys(data)) {
    if (!OTHER_KEYS.includes(key) && !LIMIT_KEYS.includes(key as keyof SettingsLimits)) {
      result.problems.push(
        `${SETTINGS_FILE}: ${key}: is not a setting (known: provider, ${LIMIT_KEYS.join(', ')}, simulatedPace)`,
      );
    }
  }
  if (data.provider !== undefined && data.provider !== null) {
    if (typeof data.provider === 'string' && (PROVIDERS as readonly string[]).includes(data.provider)) {
      result.provider = data.provider as ProviderName;
      result.set.provider = true;
    } else result.problems.push(`${SETTINGS_FILE}: provider: must be one of ${PROVIDERS.join(', ')}`);
  }
  if (data.simulatedPace !== undefined && data.simulatedPace !== null) {
    if (typeof data.simulatedPace === 'string' && (SIMULATED_PACES as readonly string[]).includes(data.simulatedPace)) {
      result.simulatedPace = data.simulatedPace as SimulatedPace;
      result.set.simulatedPace = true;
    } else result.problems.push(`${SETTINGS_FILE}: simulatedPace: must be one of ${SIMULATED_PACES.join(', ')}`);
  }
  for (const key of LIMIT_KEYS) {
    const value = data[key];
    if (value === undefined || value === null) continue;
    const problem = checkLimit(key, value);
    if (problem) result.problems.push(`${SETTINGS_FILE}: ${key}: ${problem}`);
    else {
      result.limits[key] = value as number;
      result.set[key] = true;
    }
  }
  return result;
}

const TEMPLATE = `---
kind: settings
---
# Crucible settings for this workspace

Written by the Settings page; you may edit the frontmatter above by hand too. Every field is
optional and falls back to Crucible's default:

- \`provider\`: the model provider new debates, evaluations and development sessions start with:
  \`simulated\` (offline, free), \`anthropic\` or \`openai\` (a local OpenAI-compatible server).
- \`debateBudgetUsd\` / \`evaluationBudgetUsd\`: the most one debate / one evaluation may spend, in
  US dollars (0 for a debate: no cap).
- \`debateConcurrency\` / \`evaluationConcurrency\`: model calls made at once.
- \`simulatedPace\`: \`paced\` (a simulated debate unfolds over a few seconds, so you can watch it) or
  \`instant\`.

Models per tier, the local server's address and prices are in \`models.md\`. API keys are never
written to the workspace.
`;

export type SettingsPatch = Partial<Record<keyof SettingsLimits, number | null>> & {
  provider?: ProviderName;
  simulatedPace?: SimulatedPace | null;
};

/**
 * Writes the given fields into settings.md (creating it from a template), editing only their lines
 * so the researcher's comments and other text stay. A file that changed since it was read is kept
 * and the app's version goes beside it (safe write).
 */
export function writeSettings(root: string, patch: SettingsPatch): WriteOutcome | null {
  const fields = Object.entries(patch).filter(([, v]) => v !== undefined) as [string, string | number | null][];
  if (fields.length === 0) return null;
  const abs = join(root, SETTINGS_FILE);
  const read = readForEdit(abs);
  const expected = read?.hash ?? null;
  let text = read?.text ?? TEMPLATE;
  if (expected !== null) {
    let data: Record<string, unknown> | null = null;
    try {
      data = parseMarkdown(text).data;
    } catch {
      // A broken file is still edited line by line below; the result is checked afterwards.
    }
    if (data && data.kind !== undefined && data.kind !== 'settings') {
      throw new UserError(
        `${SETTINGS_FILE} exists but is not Crucible's (its kind is "${String(data.kind)}"); rename it first`,
      );
    }
    if (data && data.kind === undefined) text = setFrontmatterField(text, 'kind', 'settings');
  }
  for (const [key, value] of fields) {
    // `null` puts the default back: the line stays, empty, so the field's place is not lost.
    text = setFrontmatterField(text, key, value === null ? '' : String(value));
  }
  try {
    parseMarkdown(text);
  } catch (error) {
    throw new UserError(
      `${SETTINGS_FILE} would not be readable after this change (${(error as Error).message}); fix the file by hand first`,
    );
  }
  return safeWrite(root, SETTINGS_FILE, text, expected);
}

/** The defaults a debate starts with from the settings file: the request's own limits win. */
export function debateLimitsFromSettings(root: string): { budgetUsd?: number; concurrency?: number } {
  const settings = readSettings(root);
  return {
    ...(settings.set.debateBudgetUsd ? { budgetUsd: settings.limits.debateBudgetUsd } : {}),
    ...(settings.set.debateConcurrency ? { concurrency: settings.limits.debateConcurrency } : {}),
  };
}
