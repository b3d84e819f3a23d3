import { captureSimulator } from '../capture/simulator';
import { classificationSimulator } from '../classification/simulator';
import { developmentSimulator } from '../development/simulator';
import { protocols } from '../protocols';
import type { ProtocolSimulator } from './registry';

/** The simulators of agent calls that belong to no run (developing an idea, classifying one), one line each. */
const OUTSIDE_RUNS: readonly ProtocolSimulator[] = [developmentSimulator, classificationSimulator, captureSimulator];

/**
 * Every simulator: each registered protocol's (core/protocols.ts, where a protocol's entry brings its
 * own) and those of the calls outside runs. Read when asked, so a protocol registered later (one that
 * lives in the tests) is answered too. The simulated model answers a brief from the one its protocol names.
 */
export function allSimulators(): ProtocolSimulator[] {
  return [...protocols.simulators, ...OUTSIDE_RUNS];
}
