import { z } from 'zod';

/**
 * The council's value framework. The eight values are frozen (what a proposal may invoke never
 * changes); only the weights each agent gives them move, and slowly (see `weights.ts`).
 */
export const BASE_VALUES = [
  'truth',
  'safety',
  'transparency',
  'cooperation',
  'coherence',
  'exploration',
  'efficiency',
  'autonomy',
] as const;
export type CouncilValue = (typeof BASE_VALUES)[number];
export const valueSchema = z.enum(BASE_VALUES);

export const COUNCIL_AGENTS = ['executor', 'verifier', 'integrator'] as const;
export type CouncilAgent = (typeof COUNCIL_AGENTS)[number];
export const agentSchema = z.enum(COUNCIL_AGENTS);

export type AgentWeights = Record<CouncilValue, number>;
export type Weights = Record<CouncilAgent, AgentWeights>;

export const WEIGHT_MIN = 0.1;
export const WEIGHT_MAX = 1.0;
/** The largest move of one weight in one adjustment. */
export const MAX_DELTA = 0.05;
/** The spread (population standard deviation across the three agents) a value must keep once it has it. */
export const DIVERSITY_FLOOR = 0.15;
/** What a value weighs for an agent that the starting table does not mention. */
const DEFAULT_WEIGHT = 0.5;

function agentWeights(emphasis: Partial<AgentWeights>): AgentWeights {
  const out = {} as AgentWeights;
  for (const value of BASE_VALUES) out[value] = emphasis[value] ?? DEFAULT_WEIGHT;
  return out;
}

/** Each role's emphasis, from the background design: the rest of its values weigh 0.5. */
export const STARTING_WEIGHTS: Weights = {
  executor: agentWeights({ exploration: 0.8, efficiency: 0.75, truth: 0.9 }),
  verifier: agentWeights({ truth: 1.0, safety: 0.9, autonomy: 0.7 }),
  integrator: agentWeights({ coherence: 0.85, cooperation: 0.85, transparency: 0.9 }),
};

/** Weights as a header or a file may give them: any agent, any value, each within the bounds. */
export const weightOverridesSchema = z.partialRecord(
  agentSchema,
  z.partialRecord(valueSchema, z.number().min(WEIGHT_MIN).max(WEIGHT_MAX)),
);
export type WeightOverrides = z.infer<typeof weightOverridesSchema>;

/** The starting weights with `overrides` laid over them, value by value (in the frozen order). */
export function weightsWith(overrides: WeightOverrides = {}, base: Weights = STARTING_WEIGHTS): Weights {
  const out = {} as Weights;
  for (const agent of COUNCIL_AGENTS) out[agent] = agentWeights({ ...base[agent], ...(overrides[agent] ?? {}) });
  return out;
}

/**
 * Figures are kept to a fixed number of decimals so that sums of products (0.8·0.8 + 0.7·0.75) read
 * as the hand computation does, and comparisons against a margin do not turn on the last bit.
 */
export function round(x: number, places = 6): number {
  const f = 10 ** places;
  return Math.round(x * f) / f;
}
