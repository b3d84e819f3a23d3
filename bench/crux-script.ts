import { falsifier } from '../core/crux/script-builder';

/**
 * A long, valid crux debate script for the engine benchmark: `agents` agents, `threads` threads
 * open at once, every thread driven through DISCOVERY and CRUX_LOCK into a long EVIDENCE stage
 * (budgets and the hard cap raised so a thread can hold hundreds of messages), then crystallized.
 * Deterministic: the same arguments give the same text.
 */
export function generateCruxScript(options: { agents: number; threads: number; messages: number }): string {
  const agents = Array.from({ length: options.agents }, (_, i) => `a${i + 1}`);
  const perThread = Math.ceil(options.messages / options.threads);
  const evidence = Math.max(20, perThread - 30);
  const lines: object[] = [
    {
      type: 'debate',
      topic: 'Generated benchmark debate',
      agents: agents.map((id, i) => ({
        id,
        name: id.toUpperCase(),
        topClaim: { statement: `${id} holds its view`, side: i % 2 === 0 ? 'YES' : 'NO', confidence: 0.7 },
        defaultHorizon: '5y',
      })),
      config: {
        budgets: { DISCOVERY: 8, CRUX_LOCK: 4 * agents.length, EVIDENCE: evidence },
        threadHardCap: 100_000,
        evidenceStability: { minMessages: 100_000, window: 6 },
      },
    },
  ];
  const words = ['output', 'wages', 'retention', 'pilot', 'survey', 'hours', 'productivity', 'burnout', 'sector', 'trial'];
  for (let t = 1; t <= options.threads; t++) {
    const id = `t${t}`;
    lines.push({ type: 'thread', id, topic: `Question ${t} about ${words[t % words.length]}` });
    const msg = (agent: string, move: string, meta: object = {}, content = '') => lines.push({ type: 'message', thread: id, agent, move, content, meta });
    // DISCOVERY: six messages from two agents, the last proposing the crux.
    for (let i = 0; i < 5; i++) msg(agents[i % 2] as string, i % 2 ? 'CHALLENGE' : 'CLAIM');
    msg(agents[1] as string, 'PROPOSE_CRUX', { question: `Will policy ${t} raise output within 18 months?` });
    // CRUX_LOCK: everyone commits (alternating sides), steelmans a neighbour of the other side, and is graded.
    agents.forEach((a, i) => {
      msg(a, 'COMMIT_POSITION', { side: i % 2 ? 'NO' : 'YES', confidence: 0.7, horizon: '5y', falsifier: falsifier() });
    });
    agents.forEach((a, i) => {
      const target = agents[(i + 1) % agents.length] as string;
      msg(a, 'STEELMAN', { steelmanTarget: target });
      msg(target, 'GRADE_STEELMAN', { steelmanGrade: 'ACCURATE' });
    });
    // EVIDENCE until the budget runs out: varied content so orbiting rarely fires.
    for (let i = 0; i < evidence; i++) {
      const a = agents[i % agents.length] as string;
      msg(a, 'PROVIDE_EVIDENCE', {}, `Study ${i} on ${words[i % words.length]} and ${words[(i * 7) % words.length]} number ${i}`);
    }
    lines.push({
      type: 'crystallize',
      thread: id,
      output: {
        question: `Will policy ${t} raise output within 18 months?`,
        positions: Object.fromEntries(agents.map((a, i) => [a, { side: i % 2 ? 'NO' : 'YES', statement: `${a} view`, confidence: 0.7 }])),
        resolutionCriteria: ['Output per employee at 18 months', 'Share of firms keeping the policy'],
        counterfactual: Object.fromEntries(agents.map((a) => [a, { wouldFlip: true, why: 'data' }])),
        confidence: 0.8,
      },
    });
  }
  return `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`;
}
