import { type ChannelInput, debateRequestSchema } from '../../../../core/contract';

type Config = NonNullable<ChannelInput<'debates:start'>['config']>;

/** The protocol settings the form offers, as typed (blank: the default). */
export interface AdvancedFields {
  lockBudget?: string;
  lockAttempts?: string;
  evidenceBudget?: string;
  steelmanRule?: string;
}

/** Each field: its label, the config field it sets (as `debate`'s flags do), and where it goes. */
const FIELDS = [
  { key: 'lockBudget', label: 'Lock budget', field: 'budgets.CRUX_LOCK', number: true },
  { key: 'lockAttempts', label: 'Lock attempts', field: 'maxLockAttempts', number: true },
  { key: 'evidenceBudget', label: 'Evidence budget', field: 'budgets.EVIDENCE', number: true },
  { key: 'steelmanRule', label: 'Steelman rule', field: 'steelmanRule', number: false },
] as const;

/**
 * The config the fields make, checked with the contract's own schema of a debate request's config,
 * or the first problem in words naming the field (`Lock budget (budgets.CRUX_LOCK): Too small: …`).
 * A number field that does not read as a number goes to the schema as text, which it refuses.
 */
export function configOf(fields: AdvancedFields): {
  value: Config | null;
  problem: string | null;
  field: string | null;
} {
  const raw: Record<string, unknown> = {};
  for (const f of FIELDS) {
    const text = fields[f.key]?.trim() ?? '';
    if (text === '') continue;
    const value = f.number && Number.isFinite(Number(text)) ? Number(text) : text;
    const [group, key] = f.field.split('.') as [string, string | undefined];
    if (key === undefined) raw[group] = value;
    else raw[group] = { ...(raw[group] as object | undefined), [key]: value };
  }
  if (Object.keys(raw).length === 0) return { value: null, problem: null, field: null };
  const parsed = debateRequestSchema.shape.config.safeParse(raw);
  if (parsed.success) return { value: parsed.data ?? null, problem: null, field: null };
  const issue = parsed.error.issues[0];
  const field = issue?.path.join('.') ?? '';
  const label = FIELDS.find((f) => f.field === field)?.label ?? 'The protocol config';
  return { value: null, problem: `${label} (${field}): ${issue?.message ?? 'not valid'}`, field };
}

/**
 * The debate form's Advanced section, folded away: the protocol settings a researcher tunes most
 * (the same four `debate` takes as flags). Blank keeps the default; the budgets' defaults grow
 * beyond four debaters (docs/crux-protocol.md).
 */
export function AdvancedConfig({
  fields,
  onChange,
  check,
  debaters,
}: {
  fields: AdvancedFields;
  onChange: (fields: AdvancedFields) => void;
  /** What `configOf` said of the fields. */
  check: { problem: string | null; field: string | null };
  debaters: number;
}) {
  const wrong = check.field;
  const set = (key: keyof AdvancedFields, value: string) => onChange({ ...fields, [key]: value });
  const numberInput = (f: (typeof FIELDS)[number]) => (
    <label key={f.key}>
      {f.label}
      <input
        type="text"
        inputMode="numeric"
        placeholder="default"
        value={fields[f.key] ?? ''}
        onChange={(e) => set(f.key, e.target.value)}
        aria-invalid={wrong === f.field}
        style={{ width: '6em' }}
      />
    </label>
  );
  return (
    <details className="advanced-config" data-testid="advanced-config">
      <summary>Advanced</summary>
      <p className="muted small">
        Blank keeps the default: a lock budget of 8 messages, 3 lock attempts, an evidence budget of 14, each side
        steelmanning someone across.
        {debaters > 4 ? ` With ${debaters} debaters the budgets left blank grow by ${debaters}/4.` : ''}
      </p>
      <div className="row">
        {FIELDS.filter((f) => f.number).map(numberInput)}
        <label>
          Steelman rule
          <select
            value={fields.steelmanRule ?? ''}
            onChange={(e) => set('steelmanRule', e.target.value)}
            aria-invalid={wrong === 'steelmanRule'}
          >
            <option value="">default (each-across)</option>
            <option value="each-across">each-across</option>
            <option value="pairwise">pairwise</option>
          </select>
        </label>
      </div>
      {check.problem !== null && (
        <p className="error-notice" role="alert" data-testid="advanced-problem">
          {check.problem}
        </p>
      )}
    </details>
  );
}
