import { z } from 'zod';
import { taxonomyViewSchema } from './entities';

/** `taxonomy:*`: the workspace's taxonomy as the UI shows it. Spread into `channels` of core/contract.ts. */

const none = z.strictObject({});

export const taxonomyChannels = {
  /** Lifecycle stages, idea types, evaluation categories with their criteria, tag vocabulary. */
  'taxonomy:get': { input: none, output: taxonomyViewSchema },
} as const;
