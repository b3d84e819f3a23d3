import { describe, expect, it } from 'vitest';
import { ScriptError } from './errors';
import { runReplay } from './replay';
import {
  FAST_CONFIG,
  analysis,
  coalitionLabels,
  crystallize,
  debate,
  message as m,
  propose,
  quickCrux,
  quickDiscovery,
  quickLock,
  script,
  thread,
} from './script-builder';

/** The ScriptError a script raises, as `line N: reason`. */
function failure(text: string): string {
  try {
    runReplay(text);
  } catch (e) {
    if (e instanceof ScriptError) return e.message;
    throw e;
  }
  throw new Error('expected a ScriptError');
}

const head = [debate(['ana', 'ben']), thread('t1')];

describe('ScriptError', () => {
  it('carries the line and the reason', () => {
    const text = `${JSON.stringify(debate(['ana', 'ben']))}\n{"type":`;
    let error: unknown;
    try {
      runReplay(text);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ScriptError);
    const se = error as ScriptError;
    expect(se.line).toBe(2);
    expect(se.reason.startsWith('malformed JSON: ')).toBe(true);
    expect(se.message).toBe(`line 2: ${se.reason}`);
  });
});

describe('script errors', () => {
  it('reports malformed JSON and schema violations with their line, blank lines counted', () => {
    expect(failure(`${script(head)}\n\nnot json`)).toMatch(/^line 4: malformed JSON: /);
    expect(failure(`${script(head)}\n[1, 2]`)).toBe('line 3: schema violation: a line must be a JSON object');
    expect(failure(script(head, { type: 'shout' }))).toBe('line 3: schema violation at type: unknown line type "shout"');
    expect(failure(script(head, m('t1', 'ana', 'SHOUT' as never)))).toMatch(/^line 3: schema violation at move: /);
    expect(failure(script(head, { type: 'message', thread: 't1', agent: 'ana', move: 'CLAIM', meta: [] }))).toMatch(
      /^line 3: schema violation at meta: /,
    );
    expect(failure(script(debate(['ana'])))).toMatch(/^line 1: schema violation at agents: /);
    expect(failure(script(debate(['ana', 'ben'], { budgets: { DISCOVERY: 0 } })))).toMatch(
      /^line 1: schema violation at config\.budgets\.DISCOVERY: /,
    );
    expect(failure(script(head, crystallize('t1', { ...analysis({}), confidence: 2 })))).toMatch(
      /^line 3: schema violation at output\.confidence: /,
    );
  });

  it('requires exactly one debate line, first', () => {
    expect(failure('')).toBe('line 1: empty script: the first line must be a debate line');
    expect(failure(script(thread('t1'), debate(['ana', 'ben'])))).toBe('line 1: the first line must be a debate line');
    expect(failure(script(head, debate(['ana', 'ben'])))).toBe('line 3: a second debate line (the first is line 1)');
    expect(failure(script(debate(['ana', 'ana'])))).toBe('line 1: duplicate agent id "ana"');
  });

  it('rejects unknown agents and threads where they are used', () => {
    expect(failure(script(head, m('t1', 'zed', 'CLAIM')))).toBe('line 3: unknown agent id "zed"');
    expect(failure(script(head, m('t9', 'ana', 'CLAIM')))).toBe('line 3: unknown thread id "t9"');
    // A thread declared later is still unknown when the message arrives.
    expect(failure(script(debate(['ana', 'ben']), m('t1', 'ana', 'CLAIM'), thread('t1')))).toBe(
      'line 2: unknown thread id "t1"',
    );
    expect(failure(script(head, thread('t1')))).toBe('line 3: thread id "t1" already exists');
    expect(failure(script(head, propose('t1', 'ana', ['ana', 'ben'], 'Again?')))).toBe('line 3: thread id "t1" already exists');
    expect(failure(script(head, propose('t2', 'zed', ['ana', 'ben'], 'Q?')))).toBe('line 3: unknown agent id "zed"');
    expect(failure(script(head, propose('t2', 'ana', ['ana', 'zed'], 'Q?')))).toBe('line 3: unknown agent id "zed"');
    expect(
      failure(script(head, quickDiscovery('t1', 'ana', 'ben'), m('t1', 'ana', 'STEELMAN', { steelmanTarget: 'zed' }))),
    ).toBe('line 9: unknown agent id "zed" in meta.steelmanTarget');
    expect(failure(script(head, m('t1', 'ana', 'CLAIM', { targetFalsifierOf: 'zed' })))).toBe(
      'line 3: unknown agent id "zed" in meta.targetFalsifierOf',
    );
  });

  it('checks crystallize and coalition_labels lines wherever they stand', () => {
    expect(failure(script(head, crystallize('t7', analysis({}))))).toBe('line 3: unknown thread id "t7"');
    expect(failure(script(head, crystallize('t1', analysis({ zed: { side: 'YES' } }))))).toBe('line 3: unknown agent id "zed"');
    expect(failure(script(head, coalitionLabels([{ members: ['ana', 'zed'], label: 'x' }])))).toBe(
      'line 3: unknown agent id "zed"',
    );
    expect(failure(script(head, crystallize('t1', analysis({})), crystallize('t1', analysis({}))))).toBe(
      'line 4: a second crystallize line for thread "t1" (first on line 3)',
    );
    // The earliest faulty line wins, even when a later crystallize line is also wrong.
    expect(failure(script(head, m('t1', 'zed', 'CLAIM'), crystallize('t1', analysis({ zed: { side: 'YES' } }))))).toBe(
      'line 3: unknown agent id "zed"',
    );
    expect(failure(script(head, crystallize('t1', analysis({ zed: { side: 'YES' } })), m('t1', 'zed', 'CLAIM')))).toBe(
      'line 3: unknown agent id "zed"',
    );
    expect(failure(script(head, m('t1', 'ana', 'CLAIM'), crystallize('t1', analysis({ zed: { side: 'YES' } }))))).toBe(
      'line 4: unknown agent id "zed"',
    );
    // A crystallize line for a proposed thread is fine even when the proposal is rejected.
    expect(runReplay(script(head, propose('t2', 'ana', ['ana'], 'Q?'), crystallize('t2', analysis({})))).threads).toHaveLength(1);
  });

  it('fails on the message that needs a missing crystallize line', () => {
    const text = script(
      debate(['ana', 'ben'], FAST_CONFIG),
      quickCrux('t1', 'ana', 'ben', analysis({})).slice(0, -1), // lines 2-11, no crystallize
    );
    expect(failure(text)).toBe('line 11: thread "t1" reached crystallization but no crystallize line names it');
  });

  it('collects crystallize lines from anywhere in the file', () => {
    const result = runReplay(
      script(
        debate(['ana', 'ben'], FAST_CONFIG),
        crystallize('t1', analysis({ ana: { side: 'YES' }, ben: { side: 'NO' } })),
        thread('t1'),
        m('t1', 'ana', 'CLAIM'),
        m('t1', 'ben', 'PROPOSE_CRUX', { question: 'Is it?' }),
        quickLock('t1', 'ana', 'ben'),
        m('t1', 'ana', 'PROVIDE_EVIDENCE'),
      ),
    );
    expect(result.threads[0]?.status).toBe('CONVERGED');
  });

  it('accepts a hand-written script with CRLF line ends and a trailing newline', () => {
    const text = [
      '{"type":"debate","topic":"T","agents":[{"id":"a","name":"A"},{"id":"b","name":"B"}]}',
      '{"type":"thread","id":"t1","topic":"Topic"}',
      '{"type":"message","thread":"t1","agent":"a","move":"CLAIM","content":"Hello"}',
      '{"type":"message","thread":"t1","agent":"b","move":"CHALLENGE","content":"No","replyTo":"m1","meta":{}}',
      '',
    ].join('\r\n');
    const result = runReplay(text);
    expect(result.threads[0]).toMatchObject({ participants: ['a', 'b'], stages: { discovery: { messages: 2 } } });
    expect(result.regime).toBe('partial');
  });
});
