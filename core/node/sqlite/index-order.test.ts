import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { compareIndexEntries, type IndexEntry } from '../../idea/index-md';

const entry = (slug: string, title: string): IndexEntry => ({
  slug,
  title,
  type: null,
  stage: 'SPARK',
  tags: [],
  updated: null,
  overallScore: null,
  stale: false,
});

describe('the order of ideas/_index.md', () => {
  it('is the order SQLite gives title COLLATE NOCASE, slug, for any text', () => {
    const titles = [
      'alpha',
      'Alpha',
      'ALPHA',
      'alphabet',
      'Ähre',
      'ähre',
      'zebra',
      'Zebra',
      '',
      ' space first',
      '_under',
      '[bracket',
      'éclair',
      'Éclair',
      '日本語',
      '🙂 smile',
      '\uE000 private use',
      '\uFFFD replacement',
      'x\u0301 combining',
      'ß',
      'SS',
    ];
    // Each title twice, under slugs that sort against the titles' own order.
    const entries = titles.flatMap((title, i) => [entry(`s${i % 7}-${i}b`, title), entry(`s${i % 7}-${i}a`, title)]);
    const db = new Database(':memory:');
    db.exec('CREATE TABLE ideas (slug TEXT PRIMARY KEY, title TEXT NOT NULL)');
    const insert = db.prepare('INSERT INTO ideas VALUES (?, ?)');
    for (const e of entries) insert.run(e.slug, e.title);
    const bySqlite = db.prepare('SELECT slug FROM ideas ORDER BY title COLLATE NOCASE, slug').pluck().all();
    db.close();
    expect([...entries].sort(compareIndexEntries).map((e) => e.slug)).toEqual(bySqlite);
  });
});
