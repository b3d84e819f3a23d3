import { createHash } from 'node:crypto';
import type { Hasher } from '../ports/hash';

export function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

export const nodeHasher: Hasher = { sha256 };
