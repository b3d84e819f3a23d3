import { randomBytes } from 'node:crypto';
import type { Ids } from '../ports/ids';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** A ULID: 48 bits of milliseconds then 80 random bits, 26 Crockford base-32 characters. */
export function ulid(now: number = Date.now()): string {
  let time = '';
  let t = now;
  for (let i = 0; i < 10; i++) {
    time = CROCKFORD[t % 32] + time;
    t = Math.floor(t / 32);
  }
  const bytes = randomBytes(16);
  let random = '';
  for (let i = 0; i < 16; i++) random += CROCKFORD[(bytes[i] as number) % 32];
  return time + random;
}

export const ulidIds: Ids = { newId: () => ulid() };
