import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';

/**
 * Runs before `npm run dev` and `npm start`: makes sure the Electron binary is downloaded (the
 * electron package's own `install-electron`, which does nothing when it is there already) and that
 * better-sqlite3 is built for Electron (scripts/build-electron-native.ts, which does nothing when it
 * is up to date). Both need the network the first time. A failure is reported loudly but does not
 * stop the command: `electron-vite` still builds, and its own error follows if Electron cannot start.
 */

const root = resolve(import.meta.dirname, '..');

const steps: { what: string; command: string[] }[] = [
  { what: 'download the Electron binary', command: [process.execPath, join(root, 'node_modules/electron/install.js')] },
  {
    what: 'build better-sqlite3 for Electron',
    command: [process.execPath, '--import', 'tsx', join(root, 'scripts/build-electron-native.ts')],
  },
];

const failed: string[] = [];
for (const step of steps) {
  const [program, ...args] = step.command as [string, ...string[]];
  const run = spawnSync(program, args, { cwd: root, stdio: 'inherit' });
  if (run.status !== 0) failed.push(step.what);
}
if (failed.length > 0) {
  process.stderr.write(
    [
      '',
      `WARNING: could not ${failed.join(', nor ')}.`,
      'The desktop app will not start until this works (it needs the network once). The tests, the CLI',
      'and browser mode (`npm run web -- --workspace DIR`) do not need it.',
      '',
    ].join('\n'),
  );
}
