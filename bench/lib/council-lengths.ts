/**
 * The simulated council's answers grown to the length a model writes them: the simulator's short
 * sentences would make every call look cheaper than it is. Each free-text field of a proposal, a
 * review, an outcome review and an episode gets at least the words a model typically spends on it
 * (our reading of such answers, not a measurement), by deterministic filler sentences, so a run
 * repeats. The note a proposal writes is grown too: its content is paid for as output.
 */
const WORDS: Readonly<Record<string, number>> = {
  // a proposal
  goal: 18,
  text: 30,
  mitigation: 20,
  risk: 15,
  content: 180,
  summary: 20,
  // a review
  rationale: 70,
  // an outcome review
  notes: 45,
};
/** Free-text items of a list, each grown to this many words. */
const ITEM_WORDS: Readonly<Record<string, number>> = { concerns: 20, expectedOutcomes: 14, keyLearnings: 30 };

const FILLER = [
  'This follows from what the idea itself says, and I quote it where it matters.',
  'The change stays inside the idea folder and leaves every file the researcher wrote as it was.',
  'If the researcher disagrees, the change can be reverted in one step without losing anything.',
  'I weigh the cost of acting against the cost of leaving the question open for another week.',
  'What would change my mind is a concrete example where this reading misleads the researcher.',
  'The earlier episodes point the same way, though their conditions were not exactly these.',
];

type Json = unknown;

function grown(text: string, words: number): string {
  let out = text;
  for (let i = text.length % FILLER.length; out.split(/\s+/).length < words; i++)
    out += ` ${FILLER[i % FILLER.length]}`;
  return out;
}

export function councilLengths(answer: Json): Json {
  const walk = (value: Json, key: string | null): Json => {
    if (typeof value === 'string' && key !== null && WORDS[key] !== undefined)
      return grown(value, WORDS[key] as number);
    if (Array.isArray(value)) {
      const items = key !== null ? ITEM_WORDS[key] : undefined;
      return value.map((v) => (typeof v === 'string' && items !== undefined ? grown(v, items) : walk(v, null)));
    }
    if (value !== null && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, k)]));
    return value;
  };
  return walk(answer, null);
}
