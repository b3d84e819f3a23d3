import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { buildModelsConfig, type ModelsConfig, ModelsConfigError, type ModelsSource } from '../../llm/prices';
import { appRoot } from '../app-root';
import { MarkdownError, parseMarkdown } from '../markdown';

/** The built-in model table, relative to the app root, and the name of a workspace's own one. */
export const MODELS_FILE = 'models.md';
export const BUILT_IN_MODELS = join('resources', MODELS_FILE);

function readSource(abs: string, shown: string): ModelsSource {
  let text: string;
  try {
    text = readFileSync(abs, 'utf8');
  } catch (error) {
    throw new ModelsConfigError([`${shown}: cannot be read (${(error as Error).message})`]);
  }
  try {
    return { file: shown, data: parseMarkdown(text).data };
  } catch (error) {
    throw new ModelsConfigError([`${shown}: ${error instanceof MarkdownError ? error.message : String(error)}`]);
  }
}

/**
 * The model table: the app's `resources/models.md`, with `<workspace>/models.md` layered over it when the
 * workspace has one (see `buildModelsConfig`). Throws `ModelsConfigError` naming the file and the field.
 */
export function loadModelsConfig(workspace: string | null): ModelsConfig {
  const builtInAbs = join(appRoot(), BUILT_IN_MODELS);
  const builtIn = readSource(builtInAbs, relative(process.cwd(), builtInAbs) || builtInAbs);
  const own = workspace ? join(workspace, MODELS_FILE) : null;
  const override = own && existsSync(own) ? readSource(own, own) : undefined;
  return buildModelsConfig(builtIn, override);
}
