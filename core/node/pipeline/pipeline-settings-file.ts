import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { MODES, type Mode } from '../../evaluation/vocabulary';
import { setFrontmatterField } from '../../idea/frontmatter-edit';
import {
  DEFAULT_PIPELINE_SETTINGS,
  PIPELINE_STEPS,
  type PipelineSettings,
  type PipelineSettingsPatch,
} from '../../pipeline/steps';
import { PROVIDERS } from '../debates/providers';
import { readForEdit, safeWrite, type WriteOutcome } from '../fs/atomic-write';
import { readTextInside } from '../fs/read-inside';
import { MarkdownError, parseMarkdown } from '../markdown';
import { UserError } from '../workspace/workspace';

/**
 * The pipeline's switches for one workspace: `<workspace>/pipeline.md`, a markdown file with a YAML
 * frontmatter beside `settings.md` and `models.md` (choices live in the folder, versioned with the
 * ideas; `.crucible/` holds only what can be rebuilt). Every field is optional; a missing one takes
 * its default (every step off), a wrong one too, and is reported naming the file and field.
 *
 * ```yaml
 * kind: pipeline
 * capture: true          # new ideas enter the pipeline as they appear
 * develop: true
 * evaluate: true
 * redteam: false
 * classify: true
 * dailyBudgetUsd: 1      # the most the pipeline spends in a day (local time)
 * reviewGate: true       # CRITICAL challenges wait for the researcher before an evaluation locks
 * evaluationMode: quick  # quick | standard | deep
 * provider:              # empty: settings.md's provider
 * maxReevaluations: 1
 * ```
 */
export const PIPELINE_FILE = 'pipeline.md';

export interface PipelineSettingsRead {
  settings: PipelineSettings;
  exists: boolean;
  problems: string[];
}

const KEYS = [
  'kind',
  ...PIPELINE_STEPS,
  'dailyBudgetUsd',
  'reviewGate',
  'evaluationMode',
  'provider',
  'maxReevaluations',
] as const;

/** Reads pipeline.md; never throws for what is in the file (problems are listed, defaults apply). */
export function readPipelineSettings(root: string): PipelineSettingsRead {
  const settings: PipelineSettings = { ...DEFAULT_PIPELINE_SETTINGS, steps: { ...DEFAULT_PIPELINE_SETTINGS.steps } };
  const result: PipelineSettingsRead = { settings, exists: false, problems: [] };
  if (!existsSync(join(root, PIPELINE_FILE))) return result;
  result.exists = true;
  let data: Record<string, unknown>;
  try {
    data = parseMarkdown(readTextInside(root, PIPELINE_FILE)).data;
  } catch (error) {
    const why = error instanceof MarkdownError ? error.message : (error as Error).message;
    result.problems.push(`${PIPELINE_FILE}: ${why}`);
    return result;
  }
  if (data.kind !== 'pipeline') {
    result.problems.push(`${PIPELINE_FILE}: kind: must be "pipeline" (is this file Crucible's?)`);
    return result;
  }
  const problem = (key: string, what: string) => result.problems.push(`${PIPELINE_FILE}: ${key}: ${what}`);
  for (const key of Object.keys(data)) {
    if (!(KEYS as readonly string[]).includes(key))
      problem(key, `is not a setting (known: ${KEYS.slice(1).join(', ')})`);
  }
  const given = (key: string) => data[key] !== undefined && data[key] !== null && data[key] !== '';
  for (const step of PIPELINE_STEPS) {
    if (!given(step)) continue;
    if (typeof data[step] === 'boolean') settings.steps[step] = data[step];
    else problem(step, 'must be true or false');
  }
  if (given('reviewGate')) {
    if (typeof data.reviewGate === 'boolean') settings.reviewGate = data.reviewGate;
    else problem('reviewGate', 'must be true or false');
  }
  if (given('dailyBudgetUsd')) {
    const v = data.dailyBudgetUsd;
    if (typeof v === 'number' && Number.isFinite(v) && v >= 0) settings.dailyBudgetUsd = v;
    else problem('dailyBudgetUsd', 'must be a number of US dollars, 0 or more');
  }
  if (given('evaluationMode')) {
    const v = data.evaluationMode;
    if (typeof v === 'string' && (MODES as readonly string[]).includes(v)) settings.evaluationMode = v as Mode;
    else problem('evaluationMode', `must be one of ${MODES.join(', ')}`);
  }
  if (given('provider')) {
    const v = data.provider;
    if (typeof v === 'string' && (PROVIDERS as readonly string[]).includes(v)) settings.provider = v;
    else problem('provider', `must be one of ${PROVIDERS.join(', ')}, or empty for settings.md's`);
  }
  if (given('maxReevaluations')) {
    const v = data.maxReevaluations;
    if (typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 3) settings.maxReevaluations = v;
    else problem('maxReevaluations', 'must be a whole number from 0 to 3');
  }
  return result;
}

const TEMPLATE = `---
kind: pipeline
---
# The pipeline of this workspace

Written by the pipeline panel (and \`pipeline configure\`); you may edit the frontmatter above by hand
too. Every field is optional and nothing runs a model until a step is switched on:

- \`capture\`: ideas that appear in the folder (a dropped file, a capture, an import) enter the pipeline.
- \`develop\`, \`evaluate\`, \`redteam\`, \`classify\`: the steps an idea goes through, in that order.
- \`dailyBudgetUsd\`: the most the pipeline spends in one day (local time), over every idea. A step
  that would pass it waits for the next day.
- \`reviewGate\`: an evaluation that raised CRITICAL challenges waits for you before it locks.
- \`evaluationMode\`: \`quick\`, \`standard\` or \`deep\`.
- \`provider\`: \`simulated\`, \`anthropic\` or \`openai\`; empty for the provider in \`settings.md\`.
- \`maxReevaluations\`: how often a red team's CRITICAL challenges may send an idea back to evaluation.

What the pipeline did with each idea is in that idea's \`pipeline.md\`.
`;

/** The frontmatter text of a patch's fields (null puts the default back: an empty value). */
function fieldsOf(patch: PipelineSettingsPatch): [string, string][] {
  const out: [string, string][] = [];
  for (const [step, on] of Object.entries(patch.steps ?? {})) if (on !== undefined) out.push([step, String(on)]);
  if (patch.dailyBudgetUsd !== undefined) out.push(['dailyBudgetUsd', String(patch.dailyBudgetUsd)]);
  if (patch.reviewGate !== undefined) out.push(['reviewGate', String(patch.reviewGate)]);
  if (patch.evaluationMode !== undefined) out.push(['evaluationMode', patch.evaluationMode]);
  if (patch.provider !== undefined) out.push(['provider', patch.provider ?? '']);
  if (patch.maxReevaluations !== undefined) out.push(['maxReevaluations', String(patch.maxReevaluations)]);
  return out;
}

/**
 * Writes the given fields into pipeline.md (creating it from a template), editing only their lines
 * so the researcher's comments and other text stay. A file changed since it was read is kept and
 * the app's version goes beside it (safe write).
 */
export function writePipelineSettings(root: string, patch: PipelineSettingsPatch): WriteOutcome | null {
  const fields = fieldsOf(patch);
  if (fields.length === 0) return null;
  const read = readForEdit(join(root, PIPELINE_FILE));
  let text = read?.text ?? TEMPLATE;
  if (read) {
    let kind: unknown;
    try {
      kind = parseMarkdown(text).data.kind;
    } catch {
      // A broken file is still edited line by line below; the result is checked afterwards.
    }
    if (kind !== undefined && kind !== 'pipeline')
      throw new UserError(
        `${PIPELINE_FILE} exists but is not Crucible's (its kind is "${String(kind)}"); rename it first`,
      );
    if (kind === undefined) text = setFrontmatterField(text, 'kind', 'pipeline');
  }
  for (const [key, value] of fields) text = setFrontmatterField(text, key, value);
  try {
    parseMarkdown(text);
  } catch (error) {
    throw new UserError(
      `${PIPELINE_FILE} would not be readable after this change (${(error as Error).message}); fix the file by hand first`,
    );
  }
  return safeWrite(root, PIPELINE_FILE, text, read?.hash ?? null);
}
