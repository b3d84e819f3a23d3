import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join, resolve, sep } from 'node:path';
import { BINDING_FILE, NATIVE_DIR, type NativeStamp, STAMP_FILE } from '../electron/native-binding';

/**
 * Builds better-sqlite3 for Electron into out/native/ (see electron/native-binding.ts), leaving
 * node_modules/better-sqlite3 (the Node build that the tests and the CLI load) untouched: the
 * package is copied into a scratch folder under out/native/ and rebuilt there with
 * @electron/rebuild, which fetches a prebuilt binary or Electron's headers and compiles.
 *
 * That download needs the network. Offline, the build fails with a message saying so; the tests,
 * the CLI and browser mode do not need this file.
 *
 *   npm run build:native            build when out/native is missing or was built for other versions
 *   npm run build:native -- --force build again regardless
 */

const root = resolve(import.meta.dirname, '..');
const require = createRequire(join(root, 'package.json'));

/**
 * The ABI a native module built for this Electron must carry (NODE_MODULE_VERSION), from the
 * electron package when it says; null when it does not.
 */
function electronAbi(): string | null {
  try {
    return readFileSync(join(dirname(require.resolve('electron/package.json')), 'abi_version'), 'utf8').trim() || null;
  } catch {
    return null;
  }
}

/**
 * Checks that `file` is not a Node build: Node must refuse to load it, naming Electron's ABI. (A
 * node-gyp pointed at Node's own headers, e.g. by an npm `nodedir` setting, would otherwise hand
 * back a Node build that Electron then refuses at start.)
 */
function checkBuiltForElectron(file: string): void {
  const probe = spawnSync(process.execPath, ['-e', `require(${JSON.stringify(file)})`], { encoding: 'utf8' });
  if (probe.status === 0) {
    throw new Error(`the result loads in Node ${process.version}, so it was built for Node, not for Electron`);
  }
  const abi = electronAbi();
  const found = /NODE_MODULE_VERSION (\d+)/.exec(probe.stderr)?.[1];
  if (abi !== null && found !== abi) {
    throw new Error(`the result carries NODE_MODULE_VERSION ${found ?? 'unknown'}, Electron needs ${abi}`);
  }
}

function versionOf(pkg: string): string {
  return (JSON.parse(readFileSync(require.resolve(`${pkg}/package.json`), 'utf8')) as { version: string }).version;
}

async function main(): Promise<number> {
  const force = process.argv.includes('--force');
  const outDir = join(root, NATIVE_DIR);
  const wanted: NativeStamp = {
    electron: versionOf('electron'),
    betterSqlite3: versionOf('better-sqlite3'),
    platform: process.platform,
    arch: process.arch,
  };
  const stampPath = join(outDir, STAMP_FILE);
  if (!force && existsSync(join(outDir, BINDING_FILE)) && existsSync(stampPath)) {
    const built = JSON.parse(readFileSync(stampPath, 'utf8')) as NativeStamp;
    if (JSON.stringify(built) === JSON.stringify(wanted)) {
      process.stdout.write(`better-sqlite3 for Electron ${wanted.electron} is up to date in ${NATIVE_DIR}/\n`);
      return 0;
    }
  }

  // The scratch folder sits inside the project, so the copied package still finds its own
  // dependencies (bindings, prebuild-install) in the project's node_modules.
  const scratch = join(outDir, '.build');
  rmSync(scratch, { recursive: true, force: true });
  const source = dirname(require.resolve('better-sqlite3/package.json'));
  const copy = join(scratch, 'node_modules', 'better-sqlite3');
  mkdirSync(dirname(copy), { recursive: true });
  // The Node build is left behind, so nothing can mistake it for the Electron one.
  const nodeBuild = join(source, 'build');
  cpSync(source, copy, { recursive: true, filter: (path) => path !== nodeBuild && !path.startsWith(nodeBuild + sep) });
  writeFileSync(
    join(scratch, 'package.json'),
    JSON.stringify({
      name: 'crucible-native',
      private: true,
      dependencies: { 'better-sqlite3': wanted.betterSqlite3 },
    }),
  );

  process.stdout.write(
    `building better-sqlite3 ${wanted.betterSqlite3} for Electron ${wanted.electron} (${wanted.platform}-${wanted.arch})…\n`,
  );
  // npm passes its own settings to scripts as npm_config_*; a `nodedir` there (some systems set
  // it to use the installed Node's headers) would make node-gyp build for Node instead.
  for (const name of Object.keys(process.env)) {
    if (/^npm_config_(nodedir|target|runtime|disturl|dist_url)$/i.test(name)) delete process.env[name];
  }
  try {
    const { rebuild } = await import('@electron/rebuild');
    await rebuild({
      buildPath: scratch,
      electronVersion: wanted.electron,
      arch: wanted.arch,
      onlyModules: ['better-sqlite3'],
      force: true,
    });
    const built = join(copy, 'build', 'Release', BINDING_FILE);
    if (!existsSync(built)) throw new Error(`the rebuild finished but left no ${BINDING_FILE}`);
    checkBuiltForElectron(built);
    mkdirSync(outDir, { recursive: true });
    copyFileSync(built, join(outDir, BINDING_FILE));
    writeFileSync(stampPath, `${JSON.stringify(wanted, null, 2)}\n`);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    process.stderr.write(
      [
        `Could not build better-sqlite3 for Electron ${wanted.electron}: ${why}`,
        '',
        'This step downloads a prebuilt binary or Electron’s headers (then compiles with a C++ toolchain:',
        'python3, make and a compiler), so it needs the network once. Without it the desktop app cannot',
        'open its index; the tests, the CLI and browser mode (`npm run web`) do not need it and still work.',
        'Try again online with: npm run build:native',
      ].join('\n') + '\n',
    );
    return 1;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  process.stdout.write(`wrote ${join(NATIVE_DIR, BINDING_FILE)}\n`);
  return 0;
}

process.exitCode = await main();
