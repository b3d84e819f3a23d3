import { z } from 'zod';
import { syncReportSchema, workspaceProblemSchema } from './entities';

/**
 * `workspace:*`: the folder against the index (a reconcile on demand, every file that could not be
 * taken in), and the change of the index the main side pushes. Spread into `channels` and
 * `pushEvents` of core/contract.ts.
 */

const none = z.strictObject({});

export const workspaceChannels = {
  /** A full reconcile of the folder against the index, with what changed. */
  'workspace:sync': { input: none, output: syncReportSchema },
  /** Every file the app could not take in: idea files, debate logs, persona files. */
  'workspace:errors': { input: none, output: z.strictObject({ errors: z.array(workspaceProblemSchema) }) },
} as const;

export const workspacePushEvents = {
  /** The index changed: a pass of the watcher, a capture, a stage change or a reconcile. */
  'sync:changed': syncReportSchema,
} as const;
