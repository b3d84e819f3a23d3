import type { Hasher } from '../ports/hash';

/**
 * A capture's identity: the hash of its text normalized (compatibility forms folded, lower case,
 * markdown's marks and the spacing dropped), so the same text captured again, from the box or from
 * a file, retyped with other line breaks or headed by `#`, is recognised. Each text captured into
 * an idea leaves its identity in the README as an HTML comment beside it (never shown, never
 * searched), so it is recognised however much the idea changed since.
 */

const MARKER = /<!--\s*captured:\s*([0-9a-f]{16})\s*-->/g;

/** The capture's text as its identity reads it. */
export function normalizeCapture(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[#*_>`~|]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Sixteen hex digits of the SHA-256 of the normalized text: 64 bits, plenty for one library. */
export function captureIdentity(text: string, hasher: Hasher): string {
  return hasher.sha256(normalizeCapture(text)).slice(0, 16);
}

/** The comment that records a capture's identity in a README. */
export function identityMarker(identity: string): string {
  return `<!-- captured: ${identity} -->`;
}

/** The identities a README's text records. */
export function identitiesIn(text: string): string[] {
  return [...text.matchAll(MARKER)].map((m) => m[1] as string);
}
