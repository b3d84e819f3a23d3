import * as crypto from 'node:crypto';
import type { Hasher } from '../ports/hash';

/** The one-shot `crypto.hash` (Node 20.12+) is about twice as fast for the many small inputs of a sync. */
const oneShot = (crypto as { hash?: (algorithm: string, data: string | Uint8Array) => string }).hash;

export function sha256(data: string | Uint8Array): string {
  return oneShot ? oneShot('sha256', data) : crypto.createHash('sha256').update(data).digest('hex');
}

export const nodeHasher: Hasher = { sha256 };
