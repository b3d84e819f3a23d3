import { z } from 'zod';
import { recordIdProblem, slugProblem } from '../idea/names';

// The ids a page sends that name files (idea slugs, debate and evaluation ids), checked once here for
// every channel, with the same rules the CLI applies (core/idea/names.ts). What passes names one
// folder or one log and nothing else; whether it exists is checked where it is looked up.

const refined = (problem: (value: string) => string | null) =>
  z
    .string()
    .trim()
    .superRefine((value, ctx) => {
      const found = problem(value);
      if (found !== null) ctx.addIssue({ code: 'custom', message: found });
    });

export const slugSchema = refined(slugProblem);
export const debateIdSchema = refined((id) => recordIdProblem(id, 'debate'));
export const evaluationIdSchema = refined((id) => recordIdProblem(id, 'evaluation'));
/** A run of any protocol: a debate's id or an evaluation's (the same alphabet). */
export const runIdSchema = refined((id) => recordIdProblem(id, 'run'));
