import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../config';
import { createState, newThread, type TranscriptEntry } from '../state';
import { askFor } from './scheduler';

// In EVIDENCE an agent is asked to challenge evidence, not a concession or a proposal, and not the
// same evidence again once it has answered it.

describe('the EVIDENCE ask', () => {
  it('challenges only evidence, once: after answering it and seeing a concession, the agent brings evidence', () => {
    const state = createState({
      topic: 'Soil sensors',
      agents: [
        { id: 'a', name: 'Alice' },
        { id: 'b', name: 'Bob' },
      ],
      config: resolveConfig({}),
    });
    const thread = newThread('t1', 'Soil sensors', 'Do the sensors stay within 3 points?', state.config, 'script');
    thread.status = 'EVIDENCE';
    thread.stances = { a: { side: 'YES', confidence: 0.7 }, b: { side: 'NO', confidence: 0.6 } };
    thread.falsifiers.b = {
      metric: 'error against the TDR probe',
      threshold: 'above 3 points',
      deadline: '2026-10-31',
    };
    thread.steelmans = [{ from: 'a', to: 'b', grade: 'ACCURATE', attempts: 1, messageId: 'm0', openedAt: 0 }];
    state.threads.push(thread);
    const entry = (id: string, author: string, move: TranscriptEntry['move'], replyTo?: string): TranscriptEntry => ({
      id,
      thread: 't1',
      author,
      move,
      content: `${move} by ${author}`,
      status: 'EVIDENCE',
      accepted: true,
      ...(replyTo ? { replyTo } : {}),
    });
    state.transcript.push(
      entry('m1', 'b', 'PROVIDE_EVIDENCE'),
      entry('m2', 'a', 'CHALLENGE_EVIDENCE', 'm1'),
      entry('m3', 'b', 'CONCEDE', 'm2'),
      entry('m4', 'b', 'PROPOSE_CRUX'),
    );
    expect(askFor(state, thread, 'a', state.transcript)).toEqual({ kind: 'PROVIDE_EVIDENCE', targetFalsifierOf: 'b' });
  });
});
