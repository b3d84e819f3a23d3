import { arenaEntry } from './arena/live/protocol';
import { councilEntry } from './council/protocol';
import { cruxEntry } from './crux/live/entry';
import { ProtocolRegistry } from './engine/registry';
import { evaluationEntry } from './evaluation/live/entry';

/**
 * Every protocol the one engine runs, one `register` line each. The general run service
 * (`core/node/runs/run-service.ts`) starts, resumes and shows a registered protocol's runs; crux and
 * evaluation are started by services of their own (`startedBy`: a debate keeps index rows, an
 * evaluation its locked record and documents) but are read, listed, simulated and controlled like
 * any other.
 */
export const protocols = new ProtocolRegistry();
protocols.register(cruxEntry);
protocols.register(evaluationEntry);
protocols.register(arenaEntry);
protocols.register(councilEntry);
