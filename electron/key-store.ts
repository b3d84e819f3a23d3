import { readFileSync } from 'node:fs';
import type { KeyStore } from '../core/node/app/key-store';
import { UserError } from '../core/node/workspace/workspace';
import type { Log } from '../core/ports/log';
import { writePrivateFile } from './private-file';

/**
 * API keys kept with Electron's safeStorage: encrypted by a key the OS keeps (macOS Keychain,
 * Windows DPAPI, the Secret Service / KWallet on Linux), the ciphertext in `<userData>/api-keys.json`.
 * Keys leave this store only towards the model adapters on the main side; no channel returns them.
 *
 * On Linux without a keyring Electron falls back to `basic_text`: a password built into Chromium,
 * i.e. no protection at all. We then refuse to store (rather than store "encrypted" in name only)
 * and say what to do instead. The decision is `assessSafeStorage`, tested with a fake safeStorage.
 */

/** The slice of Electron's safeStorage used here (its asynchronous API). */
export interface SafeStorageApi {
  isAsyncEncryptionAvailable(): Promise<boolean>;
  encryptStringAsync(plainText: string): Promise<Buffer>;
  decryptStringAsync(encrypted: Buffer): Promise<{ shouldReEncrypt: boolean; result: string }>;
  /** Linux only: which password store Electron picked. */
  getSelectedStorageBackend(): string;
}

/** Where each provider's key can come from instead, when the OS cannot keep it. */
export const KEY_ENVIRONMENT: Readonly<Record<string, string>> = {
  anthropic: 'ANTHROPIC_API_KEY',
  openai: 'CRUCIBLE_OPENAI_API_KEY',
};

export interface KeyStorage {
  backend: string;
  secure: boolean;
  warning: string | null;
}

const INSTEAD =
  'set ANTHROPIC_API_KEY (or CRUCIBLE_OPENAI_API_KEY for a local server) in the environment before starting Crucible';

/** Whether safeStorage can keep keys safely on this platform right now, and if not, why. */
export async function assessSafeStorage(safe: SafeStorageApi, platform: NodeJS.Platform): Promise<KeyStorage> {
  let backend = platform === 'darwin' ? 'keychain' : platform === 'win32' ? 'dpapi' : 'unknown';
  if (platform !== 'darwin' && platform !== 'win32') {
    backend = safe.getSelectedStorageBackend();
    if (backend === 'basic_text') {
      return {
        backend,
        secure: false,
        warning:
          'no keyring (GNOME Keyring, KWallet or another Secret Service) is running, so keys could only be ' +
          `kept with a password built into Electron, which protects nothing. Crucible does not store keys that way: ${INSTEAD}, ` +
          'or start a keyring and restart Crucible.',
      };
    }
    if (backend === 'unknown') {
      return {
        backend,
        secure: false,
        warning: `the keyring is not ready yet (the app has not finished starting); try again, or ${INSTEAD}.`,
      };
    }
  }
  let available = false;
  try {
    available = await safe.isAsyncEncryptionAvailable();
  } catch {
    available = false;
  }
  if (!available) {
    return {
      backend,
      secure: false,
      warning: `the system keychain (${backend}) cannot encrypt right now, so Crucible will not store the key: ${INSTEAD}.`,
    };
  }
  return { backend, secure: true, warning: null };
}

interface KeyFile {
  version: 1;
  /** provider → base64 of safeStorage's ciphertext. */
  keys: Record<string, string>;
}

const PROVIDER_NAME = /^[a-z][a-z0-9-]{0,39}$/;

function checkProvider(provider: string): void {
  if (typeof provider !== 'string' || !PROVIDER_NAME.test(provider)) {
    throw new UserError(`"${String(provider)}" is not a provider name`);
  }
}

export function createSafeKeyStore(options: {
  safeStorage: SafeStorageApi;
  /** `<userData>/api-keys.json`. */
  file: string;
  platform: NodeJS.Platform;
  log: Log;
}): KeyStore {
  const { safeStorage, file, platform, log } = options;
  let verdict: Promise<KeyStorage> | null = null;
  const assess = (): Promise<KeyStorage> => {
    verdict ??= assessSafeStorage(safeStorage, platform).then((s) => {
      if (s.warning) log.warn('API keys cannot be stored safely', { backend: s.backend, warning: s.warning });
      // The verdict holds for the whole run, except "not ready yet", which is asked again next time.
      if (s.backend === 'unknown') verdict = null;
      return s;
    });
    return verdict;
  };

  const read = (): KeyFile => {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      if ((error as { code?: string }).code === 'ENOENT') return { version: 1, keys: Object.create(null) };
      throw error;
    }
    try {
      const parsed = JSON.parse(text) as Partial<KeyFile>;
      if (parsed && typeof parsed.keys === 'object' && parsed.keys !== null) {
        // Own string entries only: a provider named like an Object method must not find one.
        const keys: Record<string, string> = Object.create(null);
        for (const [name, value] of Object.entries(parsed.keys)) if (typeof value === 'string') keys[name] = value;
        return { version: 1, keys };
      }
    } catch {}
    // A damaged file holds nothing we could decrypt anyway; say so and start again on the next set.
    log.warn('the stored API keys file is damaged; keys will have to be entered again', { file });
    return { version: 1, keys: Object.create(null) };
  };
  const write = (content: KeyFile) => writePrivateFile(file, `${JSON.stringify(content, null, 2)}\n`);

  // Reads and writes one at a time, so two quick `set`s cannot lose one another.
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(task: () => Promise<T>): Promise<T> => {
    const run = queue.then(task, task);
    queue = run.catch(() => {});
    return run;
  };

  return {
    async describe() {
      return { ...(await assess()) };
    },
    has: (provider) =>
      serial(async () => {
        checkProvider(provider);
        return Object.hasOwn(read().keys, provider);
      }),
    get: (provider) =>
      serial(async () => {
        checkProvider(provider);
        const content = read();
        const stored = content.keys[provider];
        if (!Object.hasOwn(content.keys, provider) || stored === undefined) return null;
        try {
          const { result, shouldReEncrypt } = await safeStorage.decryptStringAsync(Buffer.from(stored, 'base64'));
          if (shouldReEncrypt) {
            // The OS rotated its key: store the key again under the new one.
            content.keys[provider] = (await safeStorage.encryptStringAsync(result)).toString('base64');
            write(content);
          }
          return result;
        } catch (error) {
          log.warn(`the stored ${provider} key cannot be decrypted (was the keyring reset?); enter it again`, {
            error: error instanceof Error ? error.message : String(error),
          });
          return null;
        }
      }),
    set: (provider, key) =>
      serial(async () => {
        checkProvider(provider);
        const trimmed = typeof key === 'string' ? key.trim() : '';
        if (trimmed === '') throw new UserError('the key is empty');
        const s = await assess();
        if (!s.secure) throw new UserError(`Crucible did not store the ${provider} key: ${s.warning}`);
        const content = read();
        content.keys[provider] = (await safeStorage.encryptStringAsync(trimmed)).toString('base64');
        write(content);
      }),
    clear: (provider) =>
      serial(async () => {
        checkProvider(provider);
        const content = read();
        if (!Object.hasOwn(content.keys, provider)) return;
        delete content.keys[provider];
        write(content);
      }),
  };
}
