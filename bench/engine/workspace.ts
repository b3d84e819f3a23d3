import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Workspace } from '../../core/node/workspace/workspace';

/**
 * A throwaway workspace (a temp folder with the `ideas/` folder a workspace needs) so the journal
 * writes a real JSONL file and a real SQLite index, on the same disk the app would use.
 */
export interface TempWorkspace {
  ws: Workspace;
  dispose(): void;
}

export function openTempWorkspace(prefix: string): TempWorkspace {
  const root = mkdtempSync(join(tmpdir(), prefix));
  mkdirSync(join(root, 'ideas'));
  const ws = Workspace.open(root);
  return {
    ws,
    dispose() {
      ws.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
