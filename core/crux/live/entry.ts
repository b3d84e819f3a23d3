import type { z } from 'zod';
import { type DebateHeader, debateHeaderSchema } from '../../engine/debate-record';
import type { ProtocolEntry, RunResources } from '../../engine/registry';
import type { Persona } from '../../personas/persona';
import type { CruxInput } from '../inputs';
import { buildResult } from '../result';
import { cruxSimulator } from '../simulator';
import { createState } from '../state';
import { resolveConfig } from '../config';
import { cruxEpisode } from '../../memory/crux-episode';
import { type CruxAsk, type CruxRunState, cruxProtocol, type PersonaPrompt } from './protocol';

/** A debate's starting state, from its header (what a run and every reader of its log fold over). */
export function initialState(header: DebateHeader) {
  return createState({
    topic: header.topic,
    agents: header.agents.map((a) => ({
      id: a.id,
      name: a.name,
      ...(a.topClaim ? { topClaim: a.topClaim } : {}),
      ...(a.defaultHorizon ? { defaultHorizon: a.defaultHorizon } : {}),
      // The interests the debate started with (its persona's then): what each agent's attention follows.
      ...(a.interests.length > 0 ? { interests: [...a.interests] } : {}),
    })),
    config: resolveConfig(header.config),
  });
}

/** What an agent of a debate speaks with, from its persona. */
export function promptOf(p: Pick<Persona, 'systemPrompt' | 'tier' | 'interests'>): PersonaPrompt {
  return { systemPrompt: p.systemPrompt, tier: p.tier, interests: p.interests };
}

/**
 * The prompts a debate's agents and its crystallizer speak with: each agent's persona as the
 * workspace has it now, or, for an agent the header names no loadable persona for, its name, tier
 * and interests from the header (a debate started on a persona since deleted still resumes).
 */
export function cruxPrompts(
  header: DebateHeader,
  resources: Pick<RunResources, 'persona'>,
): { personas: Map<string, PersonaPrompt>; crystallizer: PersonaPrompt } {
  const personas = new Map<string, PersonaPrompt>();
  for (const agent of header.agents) {
    const persona = agent.persona ? resources.persona(agent.persona) : undefined;
    personas.set(
      agent.id,
      persona ? promptOf(persona) : { systemPrompt: `You are ${agent.name}.`, tier: agent.tier, interests: agent.interests },
    );
  }
  const crystallizer = resources.persona('crystallizer');
  return {
    personas,
    crystallizer: crystallizer
      ? promptOf(crystallizer)
      : { systemPrompt: 'You crystallize debates.', tier: 'standard', interests: [] },
  };
}

/**
 * The crux protocol in the registry: its setup is the debate's header (the log's first record), its
 * logs live in `debates/`. A debate is started by `debate` (DebateService), which also keeps the
 * index's debate rows; the general run service reads its logs like any other run's.
 */
export const cruxEntry: ProtocolEntry<DebateHeader, CruxRunState, CruxInput, CruxAsk> = {
  name: 'crux',
  version: 1,
  setup: debateHeaderSchema as unknown as z.ZodType<DebateHeader>,
  folder: 'debates',
  startedBy: 'debate',
  init: (header) => ({ crux: initialState(header), spawnOffered: new Set() }),
  protocol: (header, { now, resources }) =>
    cruxProtocol({
      subject: header.subject,
      topic: header.topic,
      agents: header.agents,
      limits: header.limits,
      ...cruxPrompts(header, resources),
      now,
    }),
  summary: (state) => buildResult(state.crux) as unknown as Record<string, unknown>,
  transcript: (state) => {
    const names = new Map(state.crux.agents.map((a) => [a.id, a.name]));
    return state.crux.transcript
      .filter((m) => m.accepted)
      .map((m) => ({
        author: m.author === null ? 'moderator' : (names.get(m.author) ?? m.author),
        text: `${m.thread} ${m.move ?? ''} ${m.content}`.replace(/\s+/g, ' ').trim(),
      }));
  },
  simulator: cruxSimulator,
  episode: (header, state) => cruxEpisode(header, state.crux),
};
