import { useEffect, useMemo, useState } from 'react';
import type { ChannelInput, SettingsView as Settings } from '../../../../core/contract';
import { useClient, useHost } from '../../api/client';
import { useAction, useChannel } from '../../api/hooks';
import type { Route } from '../../router';
import { ErrorNotice } from '../../ui/error-notice';
import { KeysCard } from './keys-card';
import { PricesCard } from './prices-card';
import './settings.css';

const PROVIDERS: { id: Settings['provider']; label: string; hint: string }[] = [
  { id: 'simulated', label: 'Offline simulator', hint: 'free, deterministic, no network: for trying things out' },
  { id: 'anthropic', label: 'Anthropic', hint: 'Claude models; needs an API key' },
  { id: 'openai', label: 'Local OpenAI-compatible server', hint: 'Ollama, llama.cpp, LM Studio, vLLM' },
];
const PACES: { id: Settings['simulatedPace']; label: string; hint: string }[] = [
  { id: 'paced', label: 'Watchable', hint: 'a simulated debate unfolds over a few seconds, turn by turn' },
  { id: 'instant', label: 'Instant', hint: 'simulated runs finish at once' },
];
const TIERS = ['fast', 'standard', 'deep'] as const;
const LIMITS: { key: keyof Settings['limits']; label: string; unit: string; step: number }[] = [
  { key: 'debateBudgetUsd', label: 'Budget of one crux debate', unit: 'US$ (0: no cap)', step: 0.5 },
  { key: 'evaluationBudgetUsd', label: 'Budget of one evaluation', unit: 'US$', step: 0.5 },
  { key: 'debateConcurrency', label: 'Model calls at once in a debate', unit: 'calls', step: 1 },
  { key: 'evaluationConcurrency', label: 'Model calls at once in an evaluation', unit: 'calls', step: 1 },
];

type SetInput = ChannelInput<'settings:set'>;

/**
 * Settings: the workspace folder, the model provider, API keys (write-only), the model of each tier,
 * the price table, budgets and concurrency, the simulator's pace. Provider, budgets, concurrency and
 * pace are kept in the workspace's settings.md; tiers, the local server's address and prices in its
 * models.md.
 */
export function SettingsView({ route }: { route: Route }) {
  void route;
  const client = useClient();
  const host = useHost();
  const loaded = useChannel('settings:get', {});
  const personas = useChannel('personas:list', {});
  const [settings, setSettings] = useState<Settings | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  useEffect(() => {
    if (loaded.data) setSettings(loaded.data);
  }, [loaded.data]);

  const save = useAction(async (input: SetInput, what: string) => {
    const { settings: next, written } = await client.invoke('settings:set', input);
    setSettings(next);
    const conflicts = written.filter((w) => w.conflict);
    setSaved(
      conflicts.length > 0
        ? `${what}: the file changed on disk meanwhile, so yours was kept and the new settings were written beside it as ${conflicts.map((c) => c.path).join(', ')} (merge by hand).`
        : `${what} saved${written.length ? ` to ${written.map((w) => w.path).join(', ')}` : ''}.`,
    );
  });

  const s = settings;
  return (
    <section className="view settings">
      <h1>Settings</h1>
      <ErrorNotice error={loaded.error} />
      {saved && (
        <p role="status" className="settings-saved">
          {saved}
        </p>
      )}
      <ErrorNotice error={save.error} onDismiss={save.clearError} />
      {!s && !loaded.error && <p className="muted">Loading…</p>}
      {s && (
        <div className="settings-grid">
          {s.problems.length > 0 && (
            <section className="card stack wide" aria-labelledby="problems">
              <h2 id="problems">Problems in the settings files</h2>
              <p className="muted small">The defaults apply to these fields until the files are fixed.</p>
              <ul>
                {s.problems.map((p) => (
                  <li key={p}>
                    <code>{p}</code>
                  </li>
                ))}
              </ul>
            </section>
          )}

          <section className="card stack" aria-labelledby="ws">
            <h2 id="ws">Workspace</h2>
            <code className="path">{s.workspace}</code>
            <p className="muted small">
              {host.kind === 'browser' ? (
                <>
                  Browser mode serves one workspace, chosen when it was started: run{' '}
                  <code>npm run web -- --workspace DIR</code> to open another.
                </>
              ) : (
                'The desktop app opens another folder from its own window menu; the folder is never moved.'
              )}{' '}
              Settings live in <code>{s.file}</code>
              {s.fileExists ? '' : ' (not written yet: the defaults apply)'}, models and prices in{' '}
              <code>{s.modelsFile}</code>
              {s.modelsFileExists ? '' : ' (none yet: the built-in table applies)'}; both are plain markdown you can
              edit.
            </p>
          </section>

          <ProviderCard settings={s} busy={save.running} onSave={(input, what) => void save.run(input, what)} />
          <KeysCard settings={s} onChanged={() => loaded.reload()} />
          <TiersCard
            settings={s}
            personas={personas.data?.personas ?? []}
            busy={save.running}
            onSave={(input, what) => void save.run(input, what)}
          />
          <LimitsCard settings={s} busy={save.running} onSave={(input, what) => void save.run(input, what)} />
          <PricesCard settings={s} busy={save.running} onSave={(input, what) => void save.run(input, what)} />
        </div>
      )}
    </section>
  );
}

type SaveFn = (input: SetInput, what: string) => void;

function ProviderCard({ settings, busy, onSave }: { settings: Settings; busy: boolean; onSave: SaveFn }) {
  const local = settings.models.find((m) => m.provider === 'openai-compatible');
  const [url, setUrl] = useState(local?.baseUrl ?? '');
  return (
    <section className="card stack" aria-labelledby="provider">
      <h2 id="provider">Model provider</h2>
      <p className="muted small">What new debates, evaluations and development sessions run on.</p>
      <fieldset className="stack plain">
        <legend className="visually-hidden">Provider</legend>
        {PROVIDERS.map((p) => (
          <label key={p.id}>
            <input
              type="radio"
              name="provider"
              value={p.id}
              checked={settings.provider === p.id}
              disabled={busy}
              onChange={() => onSave({ provider: p.id }, 'Provider')}
            />
            {p.label} <span className="muted small">— {p.hint}</span>
          </label>
        ))}
      </fieldset>
      <fieldset className="stack plain">
        <legend>Pace of the offline simulator</legend>
        {PACES.map((p) => (
          <label key={p.id}>
            <input
              type="radio"
              name="simulated-pace"
              value={p.id}
              checked={settings.simulatedPace === p.id}
              disabled={busy}
              onChange={() => onSave({ simulatedPace: p.id }, 'Simulator pace')}
            />
            {p.label} <span className="muted small">— {p.hint}</span>
          </label>
        ))}
      </fieldset>
      <form
        className="row"
        onSubmit={(e) => {
          e.preventDefault();
          onSave({ openaiBaseUrl: url.trim() === '' ? null : url.trim() }, 'Server address');
        }}
      >
        <label className="stack-label">
          Local server address
          <input
            type="url"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            placeholder="http://127.0.0.1:11434/v1"
            size={32}
          />
        </label>
        <button type="submit" disabled={busy || url === (local?.baseUrl ?? '')}>
          Save
        </button>
      </form>
    </section>
  );
}

function TiersCard({
  settings,
  personas,
  busy,
  onSave,
}: {
  settings: Settings;
  personas: { role: string; tier: string }[];
  busy: boolean;
  onSave: SaveFn;
}) {
  const [drafts, setDrafts] = useState<Record<string, string>>({});
  // Which roles ask for which tier (personas choose a tier, the table maps it to a model).
  const rolesByTier = useMemo(() => {
    const map = new Map<string, Set<string>>();
    for (const p of personas) {
      if (!map.has(p.tier)) map.set(p.tier, new Set());
      map.get(p.tier)?.add(p.role);
    }
    return map;
  }, [personas]);
  const priced = settings.prices.map((p) => p.model);
  return (
    <section className="card stack wide" aria-labelledby="tiers">
      <h2 id="tiers">Model per role</h2>
      <p className="muted small">
        Every agent asks for a tier; this table says which model answers it. A tier must name a priced model (see prices
        below; a local model costs 0).
      </p>
      <datalist id="priced-models">
        {priced.map((m) => (
          <option key={m} value={m} />
        ))}
      </datalist>
      <table className="data">
        <thead>
          <tr>
            <th>Tier</th>
            <th>Used by</th>
            {settings.models.map((m) => (
              <th key={m.provider}>
                {m.provider} <span className="badge">{m.source}</span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {TIERS.map((tier) => (
            <tr key={tier}>
              <td>{tier}</td>
              <td className="muted small">{[...(rolesByTier.get(tier) ?? [])].sort().join(', ') || '—'}</td>
              {settings.models.map((m) => {
                const key = `${m.provider}/${tier}`;
                return (
                  <td key={m.provider}>
                    <input
                      list="priced-models"
                      value={drafts[key] ?? m.tiers[tier]}
                      onChange={(e) => setDrafts((d) => ({ ...d, [key]: e.target.value }))}
                      aria-label={`${m.provider} model for the ${tier} tier`}
                    />
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      <div className="row">
        <button
          type="button"
          disabled={busy || Object.keys(drafts).length === 0}
          onClick={() => {
            const tiers = settings.models.flatMap((m) => {
              const change: Record<string, string> = {};
              for (const tier of TIERS) {
                const v = drafts[`${m.provider}/${tier}`];
                if (v !== undefined && v.trim() !== '' && v.trim() !== m.tiers[tier]) change[tier] = v.trim();
              }
              return Object.keys(change).length ? [{ provider: m.provider, ...change }] : [];
            });
            setDrafts({});
            if (tiers.length) onSave({ tiers }, 'Models');
          }}
        >
          Save models
        </button>
        <button
          type="button"
          className="link"
          disabled={Object.keys(drafts).length === 0}
          onClick={() => setDrafts({})}
        >
          Discard changes
        </button>
      </div>
    </section>
  );
}

function LimitsCard({ settings, busy, onSave }: { settings: Settings; busy: boolean; onSave: SaveFn }) {
  const [drafts, setDrafts] = useState<Partial<Record<keyof Settings['limits'], string>>>({});
  const changed = Object.keys(drafts).length > 0;
  return (
    <section className="card stack" aria-labelledby="limits">
      <h2 id="limits">Budgets and concurrency</h2>
      <form
        className="stack"
        aria-label="Budgets and concurrency"
        onSubmit={(e) => {
          e.preventDefault();
          const input: SetInput = {};
          for (const { key } of LIMITS) {
            const raw = drafts[key];
            if (raw === undefined) continue;
            input[key] = raw.trim() === '' ? null : Number(raw);
          }
          setDrafts({});
          onSave(input, 'Budgets and concurrency');
        }}
      >
        {LIMITS.map((l) => (
          <label key={l.key} className="limit">
            <span className="grow">{l.label}</span>
            <input
              type="number"
              min={l.key.endsWith('Concurrency') ? 1 : 0}
              max={l.key.endsWith('Concurrency') ? 32 : undefined}
              step={l.step}
              value={drafts[l.key] ?? String(settings.limits[l.key])}
              onChange={(e) => setDrafts((d) => ({ ...d, [l.key]: e.target.value }))}
              placeholder={String(settings.defaults[l.key])}
            />
            <span className="muted small unit">{l.unit}</span>
          </label>
        ))}
        <p className="muted small">
          Empty a field to go back to the default. Debates started from the app use these unless their own form says
          otherwise.
        </p>
        <div className="row">
          <button type="submit" disabled={busy || !changed}>
            Save
          </button>
        </div>
      </form>
    </section>
  );
}
