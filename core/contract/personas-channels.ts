import { z } from 'zod';
import { PERSONA_ROLES } from '../personas/persona';
import { fileProblemSchema, personaSummarySchema } from './entities';

/** `personas:*`: the built-in and workspace personas. Spread into `channels` of core/contract.ts. */

export const personasChannels = {
  /** The built-in and workspace personas (a workspace file replaces the built-in one with its id). */
  'personas:list': {
    input: z.strictObject({ role: z.enum(PERSONA_ROLES).optional() }),
    output: z.strictObject({ personas: z.array(personaSummarySchema), errors: z.array(fileProblemSchema) }),
  },
} as const;
