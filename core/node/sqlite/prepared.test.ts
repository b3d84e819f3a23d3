import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { preparedPerDb } from './prepared';

describe('preparedPerDb', () => {
  it('prepares once per connection and hands the same statements back', () => {
    const prepared: string[] = [];
    const statements = preparedPerDb((db) => {
      prepared.push(db.name);
      return { one: db.prepare('SELECT 1 AS n') };
    });
    const a = new Database(':memory:');
    const b = new Database(':memory:');
    const first = statements(a);
    const ofB = statements(b);
    expect([
      statements(a) === first,
      ofB === first,
      statements(b) === ofB,
      (statements(a).one.get() as { n: number }).n,
      prepared.length,
    ]).toEqual([true, false, true, 1, 2]);
    a.close();
    b.close();
  });
});
