import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * electron-builder.yml checked the way electron-builder itself checks it (its JSON schema), without
 * packaging anything: a misspelt fuse or target fails here rather than at release time.
 */
const root = resolve(import.meta.dirname, '../..');
const require = createRequire(import.meta.url);

interface BuilderConfig {
  electronFuses?: Record<string, boolean>;
  asarUnpack?: string[];
  npmRebuild?: boolean;
  linux?: { target?: string[] };
  mac?: { target?: string[] };
  win?: { target?: string[] };
}

describe('electron-builder.yml', () => {
  it('passes electron-builder’s own validation, with the fuses and targets the desktop build needs', async () => {
    const { getConfig, validateConfiguration } = require('app-builder-lib/out/util/config/config') as {
      getConfig(dir: string, path: string | null, options: null): Promise<BuilderConfig>;
      validateConfiguration(config: BuilderConfig, logger: unknown): Promise<void>;
    };
    const { DebugLogger } = require('builder-util/out/DebugLogger') as {
      DebugLogger: new (enabled: boolean) => unknown;
    };
    const config = await getConfig(root, null, null);
    await validateConfiguration(config, new DebugLogger(false));
    expect({
      fuses: config.electronFuses,
      targets: [config.linux?.target, config.mac?.target, config.win?.target],
      unpacked: config.asarUnpack,
      npmRebuild: config.npmRebuild,
    }).toEqual({
      fuses: {
        runAsNode: false,
        enableCookieEncryption: true,
        enableNodeOptionsEnvironmentVariable: false,
        enableNodeCliInspectArguments: false,
        enableEmbeddedAsarIntegrityValidation: true,
        onlyLoadAppFromAsar: true,
        grantFileProtocolExtraPrivileges: false,
      },
      targets: [['AppImage', 'deb'], ['dmg'], ['nsis']],
      unpacked: ['node_modules/better-sqlite3/**/*', 'out/native/**/*'],
      npmRebuild: false,
    });
  });
});
