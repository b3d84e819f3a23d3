import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * better-sqlite3 is a native module: one build runs under Node (the tests, the CLI, browser mode),
 * another under Electron (a different ABI). node_modules keeps the Node build untouched; the
 * Electron build lives in `out/native/` (scripts/build-electron-native.ts) and the main process
 * points better-sqlite3 at it through CRUCIBLE_SQLITE_BINDING, which core/node/sqlite/open.ts reads.
 * So `npm test` keeps working after `npm run dev`, and neither has to rebuild the other's.
 */

export const NATIVE_DIR = join('out', 'native');
export const BINDING_FILE = 'better_sqlite3.node';
export const STAMP_FILE = 'stamp.json';

/** What the binding was built for (written by the build script beside it). */
export interface NativeStamp {
  electron: string;
  betterSqlite3: string;
  platform: string;
  arch: string;
}

/**
 * The Electron build of better-sqlite3 for this run, or an error that says what to do. Packaged,
 * it sits unpacked beside the archive (electron-builder.yml: asarUnpack out/native).
 */
export function findElectronBinding(options: {
  appPath: string;
  packaged: boolean;
  resourcesPath: string;
  electronVersion: string;
  /** The version of better-sqlite3's JavaScript side, which must match the native side. */
  betterSqlite3Version: string;
  platform: string;
  arch: string;
}): { path: string } | { error: string } {
  const dir = options.packaged
    ? join(options.resourcesPath, 'app.asar.unpacked', NATIVE_DIR)
    : join(options.appPath, NATIVE_DIR);
  const path = join(dir, BINDING_FILE);
  const rebuild =
    'Run `npm run build:native` (it needs the network once, for Electron’s headers or a prebuilt binary).';
  if (!existsSync(path)) {
    return { error: `The database module for Electron is missing (${path}). ${rebuild}` };
  }
  let stamp: Partial<NativeStamp> = {};
  try {
    stamp = JSON.parse(readFileSync(join(dir, STAMP_FILE), 'utf8')) as Partial<NativeStamp>;
  } catch {
    return {
      error: `The database module for Electron at ${path} has no ${STAMP_FILE}, so its build is unknown. ${rebuild}`,
    };
  }
  const wanted = {
    electron: options.electronVersion,
    betterSqlite3: options.betterSqlite3Version,
    platform: options.platform,
    arch: options.arch,
  };
  for (const [key, value] of Object.entries(wanted)) {
    const built = stamp[key as keyof NativeStamp];
    if (built !== value) {
      return {
        error: `The database module for Electron was built for ${key} ${built ?? 'unknown'}, but this is ${value}. ${rebuild}`,
      };
    }
  }
  return { path };
}
