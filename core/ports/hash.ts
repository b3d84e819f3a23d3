/** Content hashing, reached through a port so the domain never imports a crypto module. */
export interface Hasher {
  /** Hex-encoded SHA-256 of the UTF-8 bytes of `text`. */
  sha256(text: string): string;
}
