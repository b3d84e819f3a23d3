/**
 * Repairs of an answer that need nothing but the answer and its JSON Schema: the slips every model
 * makes now and then, fixed where there is exactly one reading of what was meant. What is repaired is
 * reported in words, so the call record says the answer was not taken as written.
 */

// biome-ignore lint/suspicious/noExplicitAny: JSON Schema and answers are untyped JSON
type Json = any;

/** A spelling-blind form of a word: case, spaces, hyphens and underscores do not count. */
export function canonicalWord(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, '');
}

/**
 * The answer with every string that misses its enum only by case or spacing ("commit position" for
 * `COMMIT_POSITION`, "Major" for `MAJOR`) set to the enum value it stands for. Walks objects, arrays,
 * records and unions of the schema; anything else is left as it is for validation to judge.
 */
export function repairEnums(value: unknown, schema: Json, repairs: string[], path = ''): unknown {
  if (schema === null || typeof schema !== 'object') return value;
  if (typeof value === 'string') {
    const allowed = enumValues(schema);
    if (allowed.length === 0 || allowed.includes(value)) return value;
    const matches = allowed.filter((a) => canonicalWord(a) === canonicalWord(value));
    if (matches.length !== 1) return value;
    repairs.push(`${path || '(answer)'}: "${value}" read as "${matches[0]}"`);
    return matches[0];
  }
  if (Array.isArray(value)) {
    const items = itemSchemas(schema);
    if (items.length === 0) return value;
    return value.map((v, i) => firstRepair(v, items, repairs, `${path}[${i}]`));
  }
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      const where = path === '' ? key : `${path}.${key}`;
      const own = propertySchemas(schema, key);
      out[key] = own.length > 0 ? firstRepair(v, own, repairs, where) : v;
    }
    return out;
  }
  return value;
}

/** Repairs against the first branch of a union that changes anything (branches rarely overlap). */
function firstRepair(value: unknown, schemas: Json[], repairs: string[], path: string): unknown {
  for (const s of schemas) {
    const found: string[] = [];
    const repaired = repairEnums(value, s, found, path);
    if (found.length > 0) {
      repairs.push(...found);
      return repaired;
    }
  }
  return value;
}

function branches(schema: Json): Json[] {
  return [schema, ...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])];
}

function enumValues(schema: Json): string[] {
  return branches(schema).flatMap((s: Json) => [
    ...(Array.isArray(s.enum) ? s.enum.filter((e: unknown) => typeof e === 'string') : []),
    ...(typeof s.const === 'string' ? [s.const] : []),
  ]);
}

function itemSchemas(schema: Json): Json[] {
  return branches(schema).flatMap((s: Json) => (s.items && typeof s.items === 'object' ? [s.items] : []));
}

function propertySchemas(schema: Json, key: string): Json[] {
  return branches(schema).flatMap((s: Json) => {
    const own = s.properties?.[key];
    if (own) return [own];
    return s.additionalProperties && typeof s.additionalProperties === 'object' ? [s.additionalProperties] : [];
  });
}

/**
 * The JSON object in a text answer given instead of the tool call: a fenced block, or the outermost
 * braces with prose around them. Undefined when there is none, or more than one reading.
 */
export function jsonInProse(text: string): Record<string, unknown> | undefined {
  const candidates: string[] = [];
  for (const m of text.matchAll(/```(?:json)?\s*\n([\s\S]*?)```/g)) if (m[1]) candidates.push(m[1]);
  const first = text.indexOf('{');
  const last = text.lastIndexOf('}');
  if (first >= 0 && last > first) candidates.push(text.slice(first, last + 1));
  const parsed = new Map<string, Record<string, unknown>>();
  for (const c of candidates) {
    try {
      const value: unknown = JSON.parse(c);
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
        parsed.set(JSON.stringify(value), value as Record<string, unknown>);
      }
    } catch {
      // Not this candidate.
    }
  }
  return parsed.size === 1 ? [...parsed.values()][0] : undefined;
}
