// Compares a replay result with an expected-result file the way the design page prescribes:
// only the fields the file lists are checked (a result may hold more), failure lists compare as
// sets, and counters may carry extra zero entries.

/** Lists whose order carries no meaning. */
const SET_FIELDS = new Set(['lockFailures', 'validationFailures']);
/** Counter maps: keys the expected file leaves out must be zero. */
const COUNTER_FIELDS = new Set(['reasonsBlocked', 'moderatorInterventions', 'threadSpawnRejections']);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function numbersMatch(actual: number, expected: number, path: string): boolean {
  // dcg values are reported to 2 decimals, other ratios to 4.
  const decimals = path.includes('.dcg.') ? 2 : 4;
  return Math.abs(actual - expected) < 0.5 * 10 ** -decimals + 1e-12;
}

/** Returns one line per mismatch; an empty list means the result matches. */
export function mismatches(actual: unknown, expected: unknown, path = '$', field = ''): string[] {
  if (typeof expected === 'number') {
    return typeof actual === 'number' && numbersMatch(actual, expected, path)
      ? []
      : [`${path}: expected ${expected}, got ${JSON.stringify(actual)}`];
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return [`${path}: expected a list, got ${JSON.stringify(actual)}`];
    if (actual.length !== expected.length) {
      return [`${path}: expected ${expected.length} items, got ${actual.length}: ${JSON.stringify(actual)}`];
    }
    if (SET_FIELDS.has(field)) {
      const key = (v: unknown) => JSON.stringify(v);
      const want = [...expected].map(key).sort();
      const got = [...actual].map(key).sort();
      return want.every((w, i) => w === got[i]) ? [] : [`${path}: expected the set ${want}, got ${got}`];
    }
    return expected.flatMap((item, i) => mismatches(actual[i], item, `${path}[${i}]`, field));
  }
  if (isRecord(expected)) {
    if (!isRecord(actual)) return [`${path}: expected an object, got ${JSON.stringify(actual)}`];
    const out = Object.entries(expected).flatMap(([k, v]) => mismatches(actual[k], v, `${path}.${k}`, k));
    if (COUNTER_FIELDS.has(field)) {
      for (const [k, v] of Object.entries(actual)) {
        if (!(k in expected) && v !== 0) out.push(`${path}.${k}: expected no count, got ${JSON.stringify(v)}`);
      }
    }
    return out;
  }
  return Object.is(actual, expected) ? [] : [`${path}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`];
}
