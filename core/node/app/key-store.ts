/**
 * Where the model providers' API keys are kept. The desktop shell implements it with Electron's
 * safeStorage (the OS keychain); browser mode and the CLI have no keychain and read keys from the
 * environment only. A key goes in through `set` and out only to the model adapters on the main
 * side: no channel ever returns it.
 */
export interface KeyStore {
  /** What the keys are kept in, for the settings page (`secure: false` means set() refuses). */
  describe(): Promise<{ backend: string; secure: boolean; warning: string | null }>;
  has(provider: string): Promise<boolean>;
  get(provider: string): Promise<string | null>;
  /** Stores a key; throws a UserError (with what to do instead) when it cannot store it safely. */
  set(provider: string, key: string): Promise<void>;
  clear(provider: string): Promise<void>;
}
