import { expect, it } from 'vitest';
import { ContractError } from '../../core/contract';
import { createApp } from '../../core/node/app/create-app';
import type { KeyStore } from '../../core/node/app/key-store';
import { fakeAnthropicWorkspace } from '../helpers/fake-anthropic-workspace';
import { eventually } from '../helpers/temp-workspace';

const IDEA = 'community-solar-coop';
const KEY = 'sk-stored-in-the-keychain-0001';

/** A key store in memory, as the desktop app's keychain behaves (no environment fallback). */
function memoryKeyStore(): KeyStore & { keys: Map<string, string> } {
  const keys = new Map<string, string>();
  return {
    keys,
    describe: async () => ({ backend: 'memory', secure: true, warning: null }),
    has: async (p) => keys.has(p),
    get: async (p) => keys.get(p) ?? null,
    set: async (p, k) => void keys.set(p, k),
    clear: async (p) => void keys.delete(p),
  };
}

// Only the stored key is accepted: a request with any other (or none) gets 401.
const ws = fakeAnthropicWorkspace({
  prefix: 'crucible-keys-',
  idea: IDEA,
  fake: {
    apiKey: KEY,
    responder: () => ({ kind: 'error', status: 400, type: 'invalid_request_error', message: 'enough' }),
  },
  apiKey: null,
});

it('runs model calls with the key stored through Settings, and asks for one once it is cleared', async () => {
  const keyStore = memoryKeyStore();
  ws.app = await createApp({ workspaceRoot: ws.root, watch: false, keyStore });
  const { app, fake } = ws;
  await app.invoke('settings:setKey', { provider: 'anthropic', key: KEY });
  const request = {
    ideaSlug: IDEA,
    agents: ['optimist-engineer', 'skeptical-economist'],
    provider: 'anthropic',
    limits: { maxMessages: 2 },
  };
  const started = (await app.invoke('debates:start', request)) as { id: string };
  await eventually(() => fake.requests.length > 0, 'a model call to reach the fake server', 20_000);
  // The SDK sends the key as `x-api-key` or as a bearer token, depending on how it is configured.
  const sent = fake.requests.map((r) =>
    String(r.headers['x-api-key'] ?? r.headers.authorization).replace(/^Bearer /, ''),
  );
  expect(sent).toEqual(fake.requests.map(() => KEY));
  await app.invoke('debates:cancel', { id: started.id });

  await app.invoke('settings:clearKey', { provider: 'anthropic' });
  const refused = await app.invoke('debates:start', request).then(
    () => null,
    (e: unknown) => e,
  );
  expect(refused).toBeInstanceOf(ContractError);
  expect(refused).toMatchObject({ code: 'user_error', message: expect.stringContaining('store one in Settings') });
});
