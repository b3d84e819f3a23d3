import { describe, expect, it } from 'vitest';
import { arenaPersonaText } from './persona-text';

const who = 'You are the Tester. You trust measurements over opinions.';
const how = 'Argue from the numbers you have, and say where they end.';

describe('arenaPersonaText', () => {
  it('keeps the paragraphs before the first crux-stage one and nothing after', () => {
    const prompt = `${who}\n\n${how}\n\nAt the lock:\n- Commit a side.\n\nIn the evidence stage, cite data.\n\n${how}`;
    expect(arenaPersonaText(prompt)).toBe(`${who}\n\n${how}`);
  });

  it('stops at any crux stage, however the paragraph opens', () => {
    const stages = [
      'Stay falsifiable. When the thread moves to the lock: commit.',
      'Give a falsifier with a deadline.',
      'Steelman the other side first.',
      'In the evidence stage, prefer invoices.',
      'Say whether your top claim flips.',
    ];
    expect(stages.map((s) => arenaPersonaText(`${who}\n\n${s}\n\n${how}`))).toEqual(stages.map(() => who));
  });

  it('sends a prompt that never speaks of a crux stage whole, and one that opens with one', () => {
    const arenaOwn = `${who}\n\n${how}`;
    const opensWithLock = `At the lock, commit a side.\n\n${who}`;
    expect([arenaPersonaText(`  ${arenaOwn}\n`), arenaPersonaText(opensWithLock)]).toEqual([arenaOwn, opensWithLock]);
  });

  it('does not mistake a word that merely contains a stage word', () => {
    // "blocked", "locksmith" and "topclaims" are not the lock or a top claim.
    const prompt = `${who}\n\nWhen a plan is blocked, call the locksmith.\n\nAt the lock, commit.`;
    expect(arenaPersonaText(prompt)).toBe(`${who}\n\nWhen a plan is blocked, call the locksmith.`);
  });
});
