import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The folder holding the app's own data (`taxonomy/`, `templates/`, `ideas/` samples, `resources/`).
 * From source that is the repository root; a packaged build sets CRUCIBLE_APP_ROOT to its resources.
 */
export function appRoot(): string {
  if (process.env.CRUCIBLE_APP_ROOT) return process.env.CRUCIBLE_APP_ROOT;
  return join(dirname(fileURLToPath(import.meta.url)), '..', '..');
}
