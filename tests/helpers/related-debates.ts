import type { AnalysisOutput } from '../../core/crux/analysis';
import type { AnalysisBrief } from '../../core/crux/live/brief';
import { DebateService } from '../../core/node/debates/debate-service';
import { type ProviderFactory, providerFor } from '../../core/node/debates/providers';
import { Workspace } from '../../core/node/workspace/workspace';
import type { LlmRequest } from '../../core/ports/llm';

// Three simulated debates over related ideas whose cruxes meet, for the global crux graph's tests
// (the cruxes:* handlers and the workspace crux map in the browser). The simulator plays every agent
// and both calls of the cross-thread analysis; only the crystallizer's wording of each crux is set
// here, so that the ideas' cruxes meet: on the solar co-op, t2's crux is t1's in other words (the
// simulator finds the duplicate, its second call confirms it, t2 is merged); on the bike workshop,
// t1 asks the same tariff question (one node for both ideas) and t2 is a question t1 rests on
// (SUPPORTS, confirmed: seed 1 is sure enough, 0.9); on the soil sensors, t1 asks the tariff question
// once more and t2 something else.

export const RELATED_IDEAS = ['community-solar-coop', 'ebike-repair-workshop', 'soil-moisture-lora'];
export const RELATED_AGENTS = ['ethicist', 'field-researcher', 'investor', 'regulator'];
export const TARIFF = 'Will the local electricity tariff rise above 30 cents per kWh by 2028?';
export const ROOFTOP_SHARE = 'Will rooftop solar output rise above 30 percent of local electricity demand by 2030?';
const QUESTIONS: Record<string, Record<string, string>> = {
  'community-solar-coop': { t1: TARIFF, t2: 'Will the electricity tariff here rise above 30 cents per kWh by 2028?' },
  'ebike-repair-workshop': {
    t1: 'Will the electricity tariff in the region rise above 30 cents per kWh by 2028?',
    t2: ROOFTOP_SHARE,
  },
  'soil-moisture-lora': {
    t1: 'Will the local electricity tariff rise above 30 cents per kWh before 2028?',
    t2: 'Will farmers adopt soil sensors on half their plots by 2029?',
  },
};

/** The simulator, with the crystallizer's question for each thread taken from QUESTIONS[idea]. */
const worded =
  (idea: string): ProviderFactory =>
  (name, root, seed) => {
    const inner = providerFor(name, root, seed);
    return {
      ...inner,
      llm: {
        provider: inner.llm.provider,
        async call<T>(request: LlmRequest<T>) {
          const result = await inner.llm.call(request);
          if (request.schemaName !== 'crux_analysis') return result;
          const thread = (request.brief as AnalysisBrief).thread.id;
          const question = QUESTIONS[idea]?.[thread];
          return question ? { ...result, value: { ...(result.value as AnalysisOutput), question } as T } : result;
        },
      },
    };
  };

/** Runs the three debates (seed 1) on the workspace at `root`, oldest first, and answers their statuses. */
export async function runRelatedDebates(root: string): Promise<string[]> {
  const ws = Workspace.open(root);
  try {
    ws.sync();
    const statuses: string[] = [];
    for (const idea of RELATED_IDEAS) {
      const run = await new DebateService(ws, worded(idea)).start({
        ideaSlug: idea,
        agents: RELATED_AGENTS,
        provider: 'simulated',
        seed: 1,
      });
      statuses.push(run.outcome.status);
    }
    return statuses;
  } finally {
    ws.close();
  }
}
