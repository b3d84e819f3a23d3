import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../core/contract';
import { KeptAnswers } from '../../renderer/src/api/kept-answers';

// The page keeps the whole library's answer until the main side says the index changed.

/** A client whose pushes the test sends. */
function fakeClient(): { client: Pick<ApiClient, 'on'>; push(event: string): void } {
  const listeners = new Map<string, (() => void)[]>();
  return {
    client: {
      on: ((event: string, listener: () => void) => {
        listeners.set(event, [...(listeners.get(event) ?? []), listener]);
        return () => {};
      }) as ApiClient['on'],
    },
    push: (event) => {
      for (const l of listeners.get(event) ?? []) l();
    },
  };
}

describe('KeptAnswers', () => {
  it('keeps the whole library until sync:changed, never a filtered one or one asked for before a change', () => {
    const { client, push } = fakeClient();
    const kept = new KeptAnswers(client);
    const library = { ideas: [] };
    const seen: Record<string, unknown> = {};

    kept.put('ideas:list', '{}', library, kept.asked());
    kept.put('ideas:list', '{"stage":"SPARK"}', { ideas: [] }, kept.asked());
    seen.kept = kept.get('ideas:list', '{}');
    seen.filtered = kept.get('ideas:list', '{"stage":"SPARK"}');
    seen.other = kept.get('taxonomy:get', '{}');
    push('run:status');
    seen.afterAnotherPush = kept.get('ideas:list', '{}');
    const before = kept.asked();
    push('sync:changed');
    seen.afterChange = kept.get('ideas:list', '{}');
    // An answer asked for before the change arrives after it: it may be the old one, so not kept.
    kept.put('ideas:list', '{}', library, before);
    seen.late = kept.get('ideas:list', '{}');

    expect(seen).toEqual({
      kept: library,
      filtered: undefined,
      other: undefined,
      afterAnotherPush: library,
      afterChange: undefined,
      late: undefined,
    });
  });
});
