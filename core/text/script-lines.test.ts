import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { lineShape, readScriptLine, ScriptError } from './script-lines';

const TYPES = ['debate', 'message'] as const;
const message = z.object({ type: z.literal('message'), agents: z.array(z.object({ id: z.string().min(1) })) });

/** What reading `text` as line 7 gives: the line, or the error's message. */
function read(text: string): unknown {
  try {
    return lineShape(message, readScriptLine(text, 7, TYPES), 7);
  } catch (error) {
    if (error instanceof ScriptError) return `${error.line}|${error.message}`;
    throw error;
  }
}

describe('script lines', () => {
  it('read one JSON object of a known type, and name the line and the field of anything else', () => {
    expect(
      [
        '{"type":"message","agents":[{"id":"ana"}]}',
        '{"type":',
        '[1, 2]',
        'null',
        '{"type":"shout"}',
        '{"type":"constructor"}',
        '{"agents":[]}',
        '{"type":"message","agents":[{"id":""}]}',
      ].map(read),
    ).toEqual([
      { type: 'message', agents: [{ id: 'ana' }] },
      expect.stringMatching(/^7\|line 7: malformed JSON: /),
      '7|line 7: schema violation: a line must be a JSON object',
      '7|line 7: schema violation: a line must be a JSON object',
      '7|line 7: schema violation at type: unknown line type "shout"',
      '7|line 7: schema violation at type: unknown line type "constructor"',
      '7|line 7: schema violation at type: unknown line type undefined',
      '7|line 7: schema violation at agents[0].id: Too small: expected string to have >=1 characters',
    ]);
  });
});
