import { classificationSimulator } from '../classification/simulator';
import { cruxSimulator } from '../crux/simulator';
import { developmentSimulator } from '../development/simulator';
import { evaluationSimulator } from '../evaluation/simulator';
import type { ProtocolSimulator } from './registry';

/**
 * Every protocol's simulator, one line each: a new protocol adds its line here (and nothing in the
 * port or in another protocol). The simulated model answers a brief from the one its protocol names.
 */
export const SIMULATORS: readonly ProtocolSimulator[] = [
  cruxSimulator,
  evaluationSimulator,
  developmentSimulator,
  classificationSimulator,
];
