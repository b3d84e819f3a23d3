import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

/**
 * How the tests start the app's entry points (the CLI, the web server, test-only entries) as real
 * processes. From source (`node --import tsx main.ts`) each start costs 3–5 s of a loaded 2-core
 * machine, nearly all of it tsx resolving and loading a few hundred modules through its hooks; the
 * suite starts such processes hundreds of times. So the global setup bundles these entries once per
 * test run with esbuild (the transform tsx itself uses, npm packages left external so the same
 * better-sqlite3 and gray-matter load) and the tests start the bundle, which loads in about a
 * third of the time. Where no bundle was built for this run, they fall back to tsx.
 */

const REPO = resolve(import.meta.dirname, '..', '..');
/**
 * Two folders below the repository root, as `core/node/*.ts` are: `appRoot()` finds the app's data
 * (taxonomy, templates, prices) two folders up from its own module, which in a bundle is the bundle.
 */
const BUNDLE_DIR = join(REPO, 'out', 'test-bundles');
/** Set by the global setup once the bundles of this run are written. */
const ENV = 'CRUCIBLE_TEST_BUNDLES';

/** The entries the tests start as processes, relative to the repository root. */
export const BUNDLED_ENTRIES = [
  'core/node/cli/main.ts',
  'core/node/web/main.ts',
  'tests/council/kill-at.ts',
  'tests/protocols/tally/cli.ts',
] as const;

const bundleOf = (entry: string) => join(BUNDLE_DIR, `${entry.replace(/\.ts$/, '').replaceAll('/', '__')}.mjs`);

/** The arguments to `node` that run `entry` (an absolute path of a .ts entry point). */
export function nodeEntry(entry: string): string[] {
  const rel = relative(REPO, entry).replaceAll('\\', '/');
  const bundle = bundleOf(rel);
  if (process.env[ENV] === BUNDLE_DIR && (BUNDLED_ENTRIES as readonly string[]).includes(rel) && existsSync(bundle)) {
    return [bundle];
  }
  return ['--import', 'tsx', entry];
}

/**
 * Bundles every entry of BUNDLED_ENTRIES into out/test-bundles, each on its own so each keeps its
 * own `import.meta.url`. A module that runs itself only when it is the started script
 * (`if (invokedDirectly(import.meta.url))`, as the CLI's main does) would, bundled into another
 * entry (tally's CLI imports the CLI's main), share that entry's URL and run a second time; in
 * every bundle but its own that check is therefore false, as it is when tsx loads the module from
 * its own file.
 */
export async function buildTestBundles(): Promise<void> {
  // Until this build has succeeded the tests start the sources through tsx: a rebuild that fails
  // (a syntax error during a watch) must not leave them starting the previous bundles.
  delete process.env[ENV];
  const { build } = await import('esbuild');
  const staging = join(BUNDLE_DIR, `.staging-${process.pid}`);
  mkdirSync(staging, { recursive: true });
  try {
    await Promise.all(
      BUNDLED_ENTRIES.map(async (entry) => {
        const entryPath = join(REPO, entry);
        const out = join(staging, bundleOf(entry).slice(BUNDLE_DIR.length + 1));
        await build({
          entryPoints: [entryPath],
          outfile: out,
          bundle: true,
          platform: 'node',
          format: 'esm',
          target: `node${process.versions.node}`,
          packages: 'external',
          logLevel: 'error',
          plugins: [
            {
              name: 'invoked-directly-only-in-its-own-bundle',
              setup(b) {
                b.onLoad({ filter: /[\\/]main\.ts$/ }, (args) => {
                  if (args.path === entryPath) return undefined;
                  const source = readFileSync(args.path, 'utf8');
                  if (!source.includes('invokedDirectly(import.meta.url)')) return undefined;
                  return { contents: source.replaceAll('invokedDirectly(import.meta.url)', 'false'), loader: 'ts' };
                });
              },
            },
          ],
        });
        // Renamed into place whole: another test run in this checkout never starts half a bundle.
        renameSync(out, bundleOf(entry));
      }),
    );
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  process.env[ENV] = BUNDLE_DIR;
}
