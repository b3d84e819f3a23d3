import { useState } from 'react';
import type { SettingsView as Settings } from '../../../../core/contract';
import { useClient } from '../../api/client';
import { useAction } from '../../api/hooks';
import { ErrorNotice } from '../../ui/error-notice';

const LABEL: Record<string, string> = { anthropic: 'Anthropic', openai: 'Local server (if it asks for one)' };

/**
 * API keys, write-only: a key typed here goes to the key store (the system keychain in the desktop
 * app) and is never shown again; the page only learns whether one is stored. Where no key can be
 * stored (browser mode), the card only says which variable each key is read from and whether it is set.
 */
export function KeysCard({ settings, onChanged }: { settings: Settings; onChanged: () => void }) {
  const client = useClient();
  const [drafts, setDrafts] = useState<Record<string, string>>({});
  const [done, setDone] = useState<string | null>(null);
  const store = useAction(async (provider: 'anthropic' | 'openai') => {
    await client.invoke('settings:setKey', { provider, key: drafts[provider] ?? '' });
    setDrafts((d) => ({ ...d, [provider]: '' }));
    setDone(`The ${LABEL[provider]} key is stored.`);
    onChanged();
  });
  const forget = useAction(async (provider: 'anthropic' | 'openai') => {
    await client.invoke('settings:clearKey', { provider });
    setDone(`The ${LABEL[provider]} key is forgotten.`);
    onChanged();
  });
  const { keyStore } = settings;
  // Without a keychain (browser mode, or a desktop without one) a key cannot be stored from here:
  // no fields that would only be refused, but where each key comes from instead.
  if (!keyStore.secure) {
    return (
      <section className="card stack" aria-labelledby="keys">
        <h2 id="keys">API keys</h2>
        <p className="muted small" data-testid="keys-from-environment">
          {keyStore.warning ??
            'Keys are read from the environment of the process that serves the app and cannot be stored here.'}{' '}
          Set the variable before starting Crucible, or use the desktop app, which keeps keys in the system keychain.
        </p>
        <ul className="keys-env stack">
          {settings.keys.map((k) => (
            <li key={k.provider} className="row">
              <strong>{LABEL[k.provider] ?? k.provider}</strong>
              <code>{k.variable}</code>
              {k.set ? <span className="badge ok">set</span> : <span className="badge">not set</span>}
            </li>
          ))}
        </ul>
      </section>
    );
  }
  return (
    <section className="card stack" aria-labelledby="keys">
      <h2 id="keys">API keys</h2>
      <p className="muted small">
        Kept in: {keyStore.backend}
        {keyStore.secure ? ' (encrypted by the system).' : '.'} A stored key is never shown again.
      </p>
      {keyStore.warning && <p className="badge warn key-warning">{keyStore.warning}</p>}
      {settings.keys.map((k) => (
        <form
          key={k.provider}
          className="stack key-row"
          onSubmit={(e) => {
            e.preventDefault();
            void store.run(k.provider);
          }}
        >
          <div className="row">
            <strong>{LABEL[k.provider] ?? k.provider}</strong>
            {k.set ? <span className="badge ok">a key is stored</span> : <span className="badge">no key</span>}
            <span className="muted small">
              or <code>{k.variable}</code> in the environment
            </span>
          </div>
          <div className="row">
            <input
              type="password"
              autoComplete="off"
              spellCheck={false}
              value={drafts[k.provider] ?? ''}
              onChange={(e) => setDrafts((d) => ({ ...d, [k.provider]: e.target.value }))}
              placeholder={k.set ? 'Replace the stored key…' : 'Paste a key…'}
              aria-label={`${LABEL[k.provider] ?? k.provider} API key`}
              size={34}
            />
            <button type="submit" disabled={store.running || !(drafts[k.provider] ?? '').trim()}>
              Store
            </button>
            {k.set && (
              <button
                type="button"
                className="danger"
                onClick={() => void forget.run(k.provider)}
                disabled={forget.running}
              >
                Forget
              </button>
            )}
          </div>
        </form>
      ))}
      {done && (
        <p role="status" className="small">
          {done}
        </p>
      )}
      <ErrorNotice error={store.error} onDismiss={store.clearError} />
      <ErrorNotice error={forget.error} onDismiss={forget.clearError} />
    </section>
  );
}
