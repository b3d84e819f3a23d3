import { UserError } from '../workspace/workspace';
import type { KeyStore } from './key-store';

/** The environment variable each provider's key is read from (core/node/debates/providers.ts reads the same). */
export const KEY_VARIABLES: Readonly<Record<string, string>> = {
  anthropic: 'ANTHROPIC_API_KEY',
  openai: 'CRUCIBLE_OPENAI_API_KEY',
};

/**
 * The key store of browser mode and the CLI: no keychain, so keys come from the environment of the
 * process only, and storing one is refused with what to do instead (a page must never make the
 * server write a secret to disk in plain text).
 */
export function environmentKeyStore(env: NodeJS.ProcessEnv = process.env): KeyStore {
  const variable = (provider: string) => {
    const name = KEY_VARIABLES[provider];
    if (!name) throw new UserError(`provider: "${provider}" takes no API key`);
    return name;
  };
  return {
    describe: async () => ({
      backend: 'environment',
      secure: false,
      warning:
        'This mode has no keychain: keys are read from the environment (ANTHROPIC_API_KEY, CRUCIBLE_OPENAI_API_KEY) of the process that serves the app, and cannot be stored here.',
    }),
    has: async (provider) => Boolean(env[variable(provider)]),
    get: async (provider) => env[variable(provider)] || null,
    set: async (provider) => {
      throw new UserError(
        `no key store here: set ${variable(provider)} in the environment before starting Crucible (the desktop app stores keys in the system keychain)`,
      );
    },
    clear: async (provider) => {
      if (env[variable(provider)]) {
        throw new UserError(`the key comes from ${variable(provider)} in the environment: remove it there and restart`);
      }
    },
  };
}
