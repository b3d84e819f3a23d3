import { z } from 'zod';
import { lineShape, type Numbered, readScriptLine, ScriptError } from '../text/script-lines';
import { episodeOutputSchema, outcomeOutputSchema, proposalOutputSchema, reviewOutputSchema } from './answers';
import { type CouncilHeader, councilHeaderSchema } from './state';
import { agentSchema } from './values';

/**
 * A council replay script (JSON Lines): a `council` header, then every answer in the order the
 * council asks for it and the researcher's decisions where it waits for them. See
 * docs/council-protocol.md for the lines and what each holds.
 */
const LINE_TYPES = [
  'council',
  'proposal',
  'review',
  'revision',
  'compromise',
  'researcher',
  'outcome',
  'episode',
] as const;

const lineSchemas = {
  proposal: z.strictObject({ type: z.literal('proposal'), agent: z.literal('executor'), output: proposalOutputSchema }),
  review: z.strictObject({ type: z.literal('review'), agent: agentSchema, output: reviewOutputSchema }),
  revision: z.strictObject({ type: z.literal('revision'), agent: z.literal('executor'), output: proposalOutputSchema }),
  compromise: z.strictObject({
    type: z.literal('compromise'),
    agent: z.literal('integrator'),
    output: proposalOutputSchema,
  }),
  researcher: z.strictObject({
    type: z.literal('researcher'),
    proposal: z.string().regex(/^p[1-9]\d*$/, 'must name a proposal of the task (p1, p2, …)'),
    decision: z.enum(['approve', 'reject']),
    note: z.string().default(''),
  }),
  outcome: z.strictObject({ type: z.literal('outcome'), agent: z.literal('verifier'), output: outcomeOutputSchema }),
  episode: z.strictObject({ type: z.literal('episode'), agent: z.literal('integrator'), output: episodeOutputSchema }),
};

export type ScriptLine = {
  [K in keyof typeof lineSchemas]: z.output<(typeof lineSchemas)[K]>;
}[keyof typeof lineSchemas];

export interface CouncilScript {
  header: Numbered<CouncilHeader>;
  lines: Numbered<ScriptLine>[];
  /** The number a line after the last one would have (where a script that ends too soon is at fault). */
  end: number;
}

export function parseCouncilScript(text: string): CouncilScript {
  const raw = text.split('\n');
  let header: Numbered<CouncilHeader> | null = null;
  const lines: Numbered<ScriptLine>[] = [];
  raw.forEach((content, i) => {
    const line = i + 1;
    if (content.trim() === '') return;
    const entry = readScriptLine(content, line, LINE_TYPES);
    if (entry.type === 'council') {
      if (header) throw new ScriptError(line, `a second council line (the first is line ${header.line})`);
      const { type: _type, ...rest } = entry;
      header = { line, entry: lineShape(councilHeaderSchema, rest, line) };
      return;
    }
    if (!header) throw new ScriptError(line, 'the first line must be a council line');
    lines.push({ line, entry: lineShape(lineSchemas[entry.type], entry, line) as ScriptLine });
  });
  if (!header) throw new ScriptError(1, 'empty script: the first line must be a council line');
  const last = raw.length > 0 && raw[raw.length - 1]?.trim() === '' ? raw.length - 1 : raw.length;
  return { header, lines, end: last + 1 };
}
