import { councilEntry } from './council/protocol';
import { ProtocolRegistry } from './engine/registry';

/**
 * The protocols the general run service (`core/node/runs/run-service.ts`) can start, resume and show,
 * one `register` line each. Crux and evaluation are tenants of the same runner and log but keep the
 * services they grew with (`DebateService`, `EvaluationService`: personas, subjects, records and
 * documents of their own); a protocol without such needs registers here and nothing else changes.
 */
export const protocols = new ProtocolRegistry();
protocols.register(councilEntry);
