import { createHash } from 'node:crypto';

/**
 * The slips a real model makes now and then in a forced tool call, as transformations of a correct
 * answer. The fake server applies one to a seeded share of its answers, so debates and evaluations
 * meet them the way they will meet them on the real API.
 */

export const SLIP_KINDS = [
  /** An id written as a display name: "Optimist Engineer" for `optimist-engineer`, "Problem Clarity" for `problem-clarity`. */
  'display_names',
  /** An enum value in another case or spacing: "commit position" for `COMMIT_POSITION`. */
  'enum_case',
  /** The JSON as text with prose around it, no tool call. */
  'prose_json',
  /** Text only: no tool call and no JSON. */
  'no_tool',
  /** The answer cut off mid-way at max_tokens. */
  'max_tokens',
  /** An id that is not in play: an agent who is not in the debate, a criterion of nobody's, a score no one argued. */
  'unknown_id',
] as const;
export type SlipKind = (typeof SLIP_KINDS)[number];

export interface Misbehaviour {
  /** Share of answers with a slip, 0 to 1. */
  rate: number;
  seed: number;
  /** The slips to draw from (default all). */
  kinds?: readonly SlipKind[];
}

// biome-ignore lint/suspicious/noExplicitAny: answers are untyped JSON
type Json = any;

/** A number in [0, 1) drawn from the seed and the request, so a run repeats whatever the order of arrival. */
export function draw(seed: number, key: string, salt: string): number {
  const digest = createHash('sha256').update(`${seed}\u0000${salt}\u0000${key}`).digest();
  return digest.readUInt32BE(0) / 4294967296;
}

/** The slip for one request, or null when it is answered as asked. */
export function slipFor(m: Misbehaviour, requestKey: string): SlipKind | null {
  if (draw(m.seed, requestKey, 'slip?') >= m.rate) return null;
  const kinds = m.kinds ?? SLIP_KINDS;
  return kinds[Math.floor(draw(m.seed, requestKey, 'which') * kinds.length)] ?? null;
}

const KEBAB_ID = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)+$/;
const ENUM_VALUE = /^[A-Z][A-Z_]*[A-Z]$/;

function titleCase(id: string): string {
  return id
    .split('-')
    .map((w) => (w === '' ? w : `${w[0]?.toUpperCase()}${w.slice(1)}`))
    .join(' ');
}

function mapStrings(value: Json, f: (s: string) => string, keys: boolean): Json {
  if (typeof value === 'string') return f(value);
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, f, keys));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [keys ? f(k) : k, mapStrings(v, f, keys)]));
  }
  return value;
}

/** Ids written as names, in keys and values. Null when the answer holds no id to misname. */
export function displayNames(answer: Json): Json | null {
  let changed = false;
  const out = mapStrings(
    answer,
    (s) => {
      if (!KEBAB_ID.test(s)) return s;
      changed = true;
      return titleCase(s);
    },
    true,
  );
  return changed ? out : null;
}

/** Enum values in lower case with spaces. Null when there is none. */
export function enumCase(answer: Json): Json | null {
  let changed = false;
  const out = mapStrings(
    answer,
    (s) => {
      if (!ENUM_VALUE.test(s)) return s;
      changed = true;
      return s.toLowerCase().replace(/_/g, ' ');
    },
    false,
  );
  return changed ? out : null;
}

/** An id not in play where the answer names ids, by the answer's shape. Null when it names none. */
export function unknownId(answer: Json): Json | null {
  if (answer === null || typeof answer !== 'object') return null;
  const a = structuredClone(answer);
  if (a.positions && typeof a.positions === 'object' && Object.keys(a.positions).length > 0) {
    const [first] = Object.values(a.positions);
    a.positions['the-moderator'] = first;
    return a;
  }
  if (Array.isArray(a.scores) && a.scores.length > 0) {
    a.scores.push({ ...a.scores[0], criterion: 'overall-quality' });
    return a;
  }
  if (Array.isArray(a.challenges) && a.challenges.length > 0) {
    a.challenges[0].criterion = 'general-viability';
    return a;
  }
  if (Array.isArray(a.criteria) && a.criteria.length > 0 && typeof a.criteria[0].score === 'number') {
    // A synthesis that averages instead of picking a winner.
    const s = a.criteria[0].score;
    a.criteria[0].score = s >= 10 ? s - 1 : s + 1;
    return a;
  }
  if (a.meta && typeof a.meta === 'object' && (a.meta.steelmanTarget || a.meta.targetFalsifierOf)) {
    if (a.meta.steelmanTarget) a.meta.steelmanTarget = 'the-other-side';
    if (a.meta.targetFalsifierOf) a.meta.targetFalsifierOf = 'the-other-side';
    return a;
  }
  if (typeof a.replyTo === 'string') {
    // A reply to a message that is not in the transcript.
    a.replyTo = 'm999';
    return a;
  }
  // The arena's shapes: a critique of a claim the target never made, a revision answering a critique
  // nobody wrote, a pair or a vote naming an agent who is not in the arena, a score for one either.
  if (Array.isArray(a.critiques) && typeof a.critiques[0]?.target === 'string') {
    a.critiques[0].claim = 'k99';
    return a;
  }
  if (a.answered && typeof a.answered === 'object' && Array.isArray(a.changes)) {
    a.answered = { ...a.answered, 'c2-the-moderator-1': 'answered a critique nobody wrote' };
    return a;
  }
  if (a.agreements && typeof a.agreements === 'object' && !Array.isArray(a.agreements)) {
    // The judged measure's agreements are keyed by pair names (`ana–ben`): one names an outsider.
    const [first, ...rest] = Object.entries(a.agreements);
    if (first) a.agreements = Object.fromEntries([[`${first[0].split('–')[0]}–the-moderator`, first[1]], ...rest]);
    return a;
  }
  if (typeof a.vote === 'string' && typeof a.confidence === 'number') {
    a.vote = 'the-moderator';
    return a;
  }
  if (a.scores && typeof a.scores === 'object' && !Array.isArray(a.scores)) {
    const [first] = Object.values(a.scores) as { overall?: unknown }[];
    if (typeof first?.overall !== 'number') return null;
    a.scores['the-moderator'] = first;
    return a;
  }
  return null;
}

/** The text of a model that wrote its JSON out instead of calling the tool. */
export function proseAround(answer: Json): string {
  return `Here is my answer.\n\n\`\`\`json\n${JSON.stringify(answer, null, 2)}\n\`\`\`\n\nLet me know if you want me to expand on any part.`;
}

export const NO_TOOL_TEXT =
  'I want to answer this carefully. The question turns on evidence I would weigh differently depending on the horizon, so let me set out my reasoning before committing.';

/** Words a capable model writes in each free-text field, where the simulator writes a line. */
export const REALISTIC_WORDS: Readonly<Record<string, number>> = {
  content: 60,
  reasoning: 80,
  statement: 25,
  why: 25,
  challenge: 50,
  response: 70,
  prevailingPosition: 30,
  resolutionReasoning: 50,
  executiveSummary: 120,
  recommendationReasoning: 60,
};

const FILLER = [
  'The figures in the idea are the only ones I can rely on here, so I weigh them before anything else.',
  'A comparable case points the same way, though the conditions were not identical.',
  'What would change my view is a measured result over a full season rather than a pilot of a few weeks.',
  'The strongest counter-argument is about cost, and it deserves a direct answer rather than a dismissal.',
  'I separate what is known from what is assumed, because the assumptions carry most of the risk.',
  'The timeline matters: an effect that appears only after two years would not help the first decision.',
];

/**
 * The answer with each free-text field grown to a realistic length (see `REALISTIC_WORDS`) by
 * sentences of the kind models add. Deterministic, so a run repeats.
 */
export function realisticLengths(answer: Json): Json {
  const grow = (value: Json, key: string | null): Json => {
    if (typeof value === 'string' && key !== null && REALISTIC_WORDS[key] !== undefined) {
      const target = REALISTIC_WORDS[key] as number;
      let text = value;
      for (let i = value.length % FILLER.length; text.split(/\s+/).length < target; i++) {
        text += ` ${FILLER[i % FILLER.length]}`;
      }
      return text;
    }
    if (Array.isArray(value)) return value.map((v) => grow(v, null));
    if (value !== null && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, grow(v, k)]));
    }
    return value;
  };
  return grow(answer, null);
}
