/**
 * A small seeded PRNG (mulberry32). The benchmark must build the same workspace on every run and
 * every machine, so nothing here may touch Math.random.
 */
export class Prng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [min, max] (both included). */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /**
   * An index in [0, n) where rank r is drawn with probability ∝ 1/(r+1): word frequencies in real
   * text follow roughly this law, which gives the full-text index a realistic shape (a few very
   * common terms, a long tail of rare ones).
   */
  zipfIndex(n: number): number {
    return Math.min(n - 1, Math.floor(Math.exp(this.next() * Math.log(n + 1))) - 1);
  }

  /** `count` distinct items, in the order drawn. */
  sample<T>(items: readonly T[], count: number): T[] {
    const out = new Set<T>();
    const wanted = Math.min(count, items.length);
    while (out.size < wanted) out.add(this.pick(items));
    return [...out];
  }
}

/** A stable 32-bit seed from a label (FNV-1a), so each generator stream has its own sequence. */
export function seedOf(label: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < label.length; i++) {
    h ^= label.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
