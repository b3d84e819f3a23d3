import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { translateError } from '../core/node/app/handler';
import { silentLog } from '../core/ports/log';
import { assessSafeStorage, createSafeKeyStore, type SafeStorageApi } from './key-store';

/**
 * A stand-in for Electron's safeStorage: "encrypts" by reversing and tagging, so a test can tell
 * ciphertext from the key, and can be told which backend it runs on and whether it works.
 */
class FakeSafeStorage implements SafeStorageApi {
  encrypted = 0;
  rotate = false;

  constructor(
    public backend = 'gnome_libsecret',
    public available = true,
  ) {}

  async isAsyncEncryptionAvailable() {
    return this.available;
  }
  async encryptStringAsync(plainText: string) {
    this.encrypted++;
    return Buffer.from(`enc:${[...plainText].reverse().join('')}`);
  }
  async decryptStringAsync(encrypted: Buffer) {
    const text = encrypted.toString();
    if (!text.startsWith('enc:'))
      throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.');
    return { result: [...text.slice(4)].reverse().join(''), shouldReEncrypt: this.rotate };
  }
  getSelectedStorageBackend() {
    return this.backend;
  }
}

let dir: string;
let file: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'crucible-keys-'));
  file = join(dir, 'api-keys.json');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const KEY = 'sk-ant-api03-secret-value';

describe('assessSafeStorage', () => {
  it('trusts the OS keychain on macOS and Windows, and a real keyring on Linux', async () => {
    const verdicts = await Promise.all([
      assessSafeStorage(new FakeSafeStorage('basic_text'), 'darwin'),
      assessSafeStorage(new FakeSafeStorage('basic_text'), 'win32'),
      assessSafeStorage(new FakeSafeStorage('gnome_libsecret'), 'linux'),
      assessSafeStorage(new FakeSafeStorage('kwallet6'), 'linux'),
    ]);
    expect(verdicts.map((v) => `${v.backend} ${v.secure}`)).toEqual([
      'keychain true',
      'dpapi true',
      'gnome_libsecret true',
      'kwallet6 true',
    ]);
  });

  it('refuses basic_text on Linux, a keyring not ready, and encryption that is unavailable, each saying what to do', async () => {
    const verdicts = await Promise.all([
      assessSafeStorage(new FakeSafeStorage('basic_text'), 'linux'),
      assessSafeStorage(new FakeSafeStorage('unknown'), 'linux'),
      assessSafeStorage(new FakeSafeStorage('gnome_libsecret', false), 'linux'),
      assessSafeStorage(new FakeSafeStorage('', false), 'darwin'),
    ]);
    expect(verdicts.map((v) => v.secure)).toEqual([false, false, false, false]);
    for (const v of verdicts) expect(v.warning).toContain('ANTHROPIC_API_KEY');
    expect(verdicts[0]?.warning).toContain('no keyring');
  });
});

describe('the safeStorage key store', () => {
  it('keeps a key encrypted in its file (readable by the user only) and gives it back', async () => {
    const safe = new FakeSafeStorage();
    const store = createSafeKeyStore({ safeStorage: safe, file, platform: 'linux', log: silentLog });
    expect(await store.has('anthropic')).toBe(false);
    await store.set('anthropic', `  ${KEY}\n`);

    const onDisk = readFileSync(file, 'utf8');
    expect(onDisk).not.toContain(KEY);
    expect(JSON.parse(onDisk)).toEqual({
      version: 1,
      keys: { anthropic: Buffer.from(`enc:${[...KEY].reverse().join('')}`).toString('base64') },
    });
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);

    // A new store (the next start) reads it back.
    const again = createSafeKeyStore({ safeStorage: safe, file, platform: 'linux', log: silentLog });
    expect([await again.has('anthropic'), await again.get('anthropic'), await again.get('openai')]).toEqual([
      true,
      KEY,
      null,
    ]);
    await again.clear('anthropic');
    expect([await again.has('anthropic'), await again.get('anthropic')]).toEqual([false, null]);
  });

  it('on Linux without a keyring refuses to store, with a UserError saying why and what to do, and writes nothing', async () => {
    const store = createSafeKeyStore({
      safeStorage: new FakeSafeStorage('basic_text'),
      file,
      platform: 'linux',
      log: silentLog,
    });
    expect(await store.describe()).toMatchObject({ backend: 'basic_text', secure: false });
    const error = await store.set('anthropic', KEY).then(
      () => null,
      (e: unknown) => e,
    );
    // What the settings channel will answer: a user_error, one line the researcher can act on.
    const wire = translateError(error) as { code?: string; message?: string };
    expect(wire.code).toBe('user_error');
    expect(wire.message).toMatch(
      /^Crucible did not store the anthropic key: no keyring .* set ANTHROPIC_API_KEY .* in the environment/,
    );
    expect(() => readFileSync(file)).toThrow(/ENOENT/);
  });

  it('re-encrypts a key when the OS rotated its own, and forgets one it can no longer decrypt', async () => {
    const safe = new FakeSafeStorage();
    const store = createSafeKeyStore({ safeStorage: safe, file, platform: 'linux', log: silentLog });
    await store.set('anthropic', KEY);
    safe.rotate = true;
    expect(await store.get('anthropic')).toBe(KEY);
    expect(safe.encrypted).toBe(2);

    writeFileSync(file, JSON.stringify({ version: 1, keys: { anthropic: Buffer.from('garbage').toString('base64') } }));
    expect(await store.get('anthropic')).toBeNull();
  });

  it('refuses empty keys and odd provider names, and keeps two quick sets', async () => {
    const store = createSafeKeyStore({ safeStorage: new FakeSafeStorage(), file, platform: 'linux', log: silentLog });
    await expect(store.set('anthropic', '   ')).rejects.toThrow('the key is empty');
    await expect(store.set('../x', KEY)).rejects.toThrow('"../x" is not a provider name');
    expect(await store.has('constructor')).toBe(false);
    await Promise.all([store.set('anthropic', 'a-key'), store.set('openai', 'o-key')]);
    expect([await store.get('anthropic'), await store.get('openai')]).toEqual(['a-key', 'o-key']);
  });
});
