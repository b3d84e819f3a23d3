import { describe, expect, it } from 'vitest';
import { cosine, pairwiseAgreement } from './cosine';

describe('cosine agreement', () => {
  it('is the cosine of each pair, a negative one read as 0, a zero vector as 0', () => {
    // (1,0)·(1,1) = 1, |a| = 1, |b| = √2: 1/√2; (1,0)·(−1,0) = −1 → 0; (1,1)·(−1,0) = −1/√2 → 0.
    expect(
      pairwiseAgreement(
        ['a', 'b', 'c'],
        [
          [1, 0],
          [1, 1],
          [-1, 0],
        ],
      ),
    ).toEqual([
      { a: 'a', b: 'b', agreement: 1 / Math.sqrt(2) },
      { a: 'a', b: 'c', agreement: 0 },
      { a: 'b', b: 'c', agreement: 0 },
    ]);
    expect([cosine([3, 4], [6, 8]), cosine([0, 0], [1, 2])]).toEqual([1, 0]);
    expect(() => cosine([1], [1, 2])).toThrow('embeddings of different lengths (1 and 2)');
  });
});
