import { resolve } from 'node:path';
import type { TestProject } from 'vitest/node';
import { ensureRendererBuilt } from '../core/node/web/build-renderer';
import { buildTestBundles } from './helpers/node-entry';

/**
 * Builds the renderer once, before any test file runs, when it is missing or older than its
 * sources: the end-to-end files run in parallel, and each building it on its own would have them
 * write the same folder at once. Bundles the entry points the tests start as processes, fresh for
 * every run and again before each rerun in watch mode, so no test starts yesterday's code (see
 * helpers/node-entry.ts).
 */
export default async function setup(project: TestProject): Promise<void> {
  await buildTestBundles();
  project.onTestsRerun(() => buildTestBundles());
  await ensureRendererBuilt(resolve(import.meta.dirname, '..'), (line) => process.stderr.write(`${line}\n`));
}
