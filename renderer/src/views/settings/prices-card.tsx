import { useState } from 'react';
import type { ChannelInput, SettingsView as Settings } from '../../../../core/contract';

const FIELDS = [
  { key: 'inputPerMTok', label: 'Input' },
  { key: 'outputPerMTok', label: 'Output' },
  { key: 'cacheWritePerMTok', label: 'Cache write' },
  { key: 'cacheReadPerMTok', label: 'Cache read' },
] as const;
type Field = (typeof FIELDS)[number]['key'];
type Price = Record<Field, number>;

/**
 * The price table (US dollars per million tokens): the built-in prices with the workspace's over
 * them. Edits and new models are saved into the workspace's models.md; a workspace price can be
 * dropped to go back to the built-in one.
 */
export function PricesCard({
  settings,
  busy,
  onSave,
}: {
  settings: Settings;
  busy: boolean;
  onSave: (input: ChannelInput<'settings:set'>, what: string) => void;
}) {
  const [drafts, setDrafts] = useState<Record<string, Partial<Record<Field, string>>>>({});
  const [added, setAdded] = useState<{ model: string } & Record<Field, string>>({
    model: '',
    inputPerMTok: '',
    outputPerMTok: '',
    cacheWritePerMTok: '',
    cacheReadPerMTok: '',
  });
  const edited = Object.keys(drafts);

  const save = () => {
    const prices = edited.flatMap((model) => {
      const current = settings.prices.find((p) => p.model === model);
      if (!current) return [];
      const price = {} as Price;
      for (const { key } of FIELDS) price[key] = Number(drafts[model]?.[key] ?? current[key]);
      return [{ model, ...price }];
    });
    if (added.model.trim()) {
      const price = {} as Price;
      for (const { key } of FIELDS) price[key] = Number(added[key] || 0);
      prices.push({ model: added.model.trim(), ...price });
    }
    setDrafts({});
    setAdded({ model: '', inputPerMTok: '', outputPerMTok: '', cacheWritePerMTok: '', cacheReadPerMTok: '' });
    onSave({ prices }, 'Prices');
  };

  return (
    <section className="card stack wide" aria-labelledby="prices">
      <h2 id="prices">Prices</h2>
      <p className="muted small">
        US dollars per million tokens. Debates and evaluations are metered with these and held to their budgets before
        every call, so keep them current.
      </p>
      <div className="prices-scroll">
        <table className="data prices">
          <thead>
            <tr>
              <th>Model</th>
              {FIELDS.map((f) => (
                <th key={f.key} className="num">
                  {f.label}
                </th>
              ))}
              <th>From</th>
            </tr>
          </thead>
          <tbody>
            {settings.prices.map((p) => (
              <tr key={p.model} className={drafts[p.model] ? 'edited' : undefined}>
                <td>
                  <code>{p.model}</code>
                </td>
                {FIELDS.map((f) => (
                  <td key={f.key} className="num">
                    <input
                      type="number"
                      min={0}
                      step="any"
                      value={drafts[p.model]?.[f.key] ?? String(p[f.key])}
                      onChange={(e) =>
                        setDrafts((d) => ({ ...d, [p.model]: { ...d[p.model], [f.key]: e.target.value } }))
                      }
                      aria-label={`${f.label} price of ${p.model}`}
                    />
                  </td>
                ))}
                <td>
                  {p.source === 'workspace' ? (
                    <button
                      type="button"
                      className="link"
                      disabled={busy}
                      onClick={() =>
                        onSave({ removePrices: [p.model] }, `The workspace price of ${p.model} removed; it`)
                      }
                      title="Drop this workspace's price (the built-in one applies again, if there is one)"
                    >
                      workspace ×
                    </button>
                  ) : (
                    <span className="muted">built-in</span>
                  )}
                </td>
              </tr>
            ))}
            <tr>
              <td>
                <input
                  value={added.model}
                  onChange={(e) => setAdded((a) => ({ ...a, model: e.target.value }))}
                  placeholder="Add a model…"
                  aria-label="New model id"
                />
              </td>
              {FIELDS.map((f) => (
                <td key={f.key} className="num">
                  <input
                    type="number"
                    min={0}
                    step="any"
                    value={added[f.key]}
                    onChange={(e) => setAdded((a) => ({ ...a, [f.key]: e.target.value }))}
                    aria-label={`${f.label} price of the new model`}
                    placeholder="0"
                  />
                </td>
              ))}
              <td />
            </tr>
          </tbody>
        </table>
      </div>
      <div className="row">
        <button type="button" disabled={busy || (edited.length === 0 && !added.model.trim())} onClick={save}>
          Save prices
        </button>
        <button type="button" className="link" disabled={edited.length === 0} onClick={() => setDrafts({})}>
          Discard changes
        </button>
      </div>
    </section>
  );
}
