import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

/**
 * Runs `use` with the path of a temporary file holding an upload's bytes under its own name (the
 * name decides the idea's title and how the file is read), and removes the file afterwards. The
 * workspace then treats it exactly as a dropped file.
 */
export function withUploadedFile<T>(name: string, contentBase64: string, use: (path: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'crucible-upload-'));
  try {
    // The contract already refuses folders in the name; basename is the second lock on that door.
    const path = join(dir, basename(name) || 'upload');
    writeFileSync(path, Buffer.from(contentBase64, 'base64'));
    return use(path);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
