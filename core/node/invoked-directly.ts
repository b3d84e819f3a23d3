import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * Whether the module at `moduleUrl` (its `import.meta.url`) is the script this process was started
 * with (`tsx core/node/cli/main.ts …`), rather than imported by a test or another entry point: an
 * entry point runs itself only then. Paths are compared after resolving links, so a symlinked
 * checkout still counts; anything that cannot be resolved does not.
 */
export function invokedDirectly(moduleUrl: string, argv: readonly string[] = process.argv): boolean {
  const script = argv[1];
  if (script === undefined) return false;
  try {
    return realpathSync(script) === realpathSync(fileURLToPath(moduleUrl));
  } catch {
    return false;
  }
}
