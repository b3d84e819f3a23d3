import { afterEach, expect, it } from 'vitest';
import { readme, tempWorkspace, writeFile } from '../../../tests/helpers/temp-workspace';
import { Workspace } from '../workspace/workspace';
import { IndexMemo, isKept, SameRows } from './index-memo';

let cleanup: (() => void) | null = null;
afterEach(() => cleanup?.());

it('keeps an answer until a sync pass changes the index, and only then computes it again', () => {
  const tmp = tempWorkspace('crucible-memo-');
  const ws = Workspace.open(tmp.root);
  cleanup = () => {
    ws.close();
    tmp.cleanup();
  };
  writeFile(tmp.root, 'ideas/first/README.md', readme('First'));
  ws.sync();
  const memo = new IndexMemo(ws);
  let computed = 0;
  const titles = () =>
    memo.get('titles', () => {
      computed++;
      return ws.list().map((i) => i.title);
    });

  expect(titles()).toEqual(['First']);
  ws.sync(); // nothing changed: the kept answer stands
  expect(titles()).toEqual(['First']);
  expect(computed).toBe(1);

  writeFile(tmp.root, 'ideas/second/README.md', readme('Second'));
  ws.sync();
  expect(titles()).toEqual(['First', 'Second']);
  expect(computed).toBe(2);

  memo.close();
  writeFile(tmp.root, 'ideas/third/README.md', readme('Third'));
  ws.sync();
  expect(computed).toBe(2);
});

it('serves a kept answer checked once and frozen, and a fresh one after a capture', async () => {
  const tmp = tempWorkspace('crucible-memo-app-');
  writeFile(tmp.root, 'ideas/first/README.md', readme('First'));
  const { createApp } = await import('./create-app');
  const app = await createApp({ workspaceRoot: tmp.root, watch: false });
  cleanup = () => tmp.cleanup();
  try {
    const first = (await app.invoke('ideas:list', {})) as { ideas: { title: string }[] };
    const again = (await app.invoke('ideas:list', {})) as { ideas: { title: string }[] };
    expect(again).toBe(first);
    expect(Object.isFrozen(first.ideas[0])).toBe(true);
    expect(() => {
      (first.ideas as { title: string }[]).push({ title: 'sneaked in' });
    }).toThrow(TypeError);

    await app.invoke('ideas:capture', { title: 'Second' });
    const after = (await app.invoke('ideas:list', {})) as { ideas: { title: string }[] };
    expect(after.ideas.map((i) => i.title).sort()).toEqual(['First', 'Second']);
    // A filtered list is never kept.
    const filtered = await app.invoke('ideas:list', { stage: 'SPARK' });
    expect(await app.invoke('ideas:list', { stage: 'SPARK' })).not.toBe(filtered);
  } finally {
    await app.close();
  }
});

it('hands out the same object while the rows are the same (kept or equal field by field), a new one when one differs', () => {
  type Row = { id: string; n?: number | undefined; m?: number | undefined };
  const same = new SameRows<Row, { rows: Row[] }>();
  const wrap = (rows: readonly Row[]) => ({ rows: [...rows] });
  const kept: Row = { id: 'a', n: 1 };
  const first = same.of([kept, { id: 'b', n: 2 }], wrap);
  expect(isKept(first)).toBe(true);
  expect(same.of([kept, { id: 'b', n: 2 }], wrap)).toBe(first);
  const changed = same.of([kept, { id: 'b', n: 3 }], wrap);
  const longer = same.of([kept, { id: 'b', n: 3 }, { id: 'c', n: undefined }], wrap);
  // Another field, undefined on both sides: still a different row.
  const other = same.of([kept, { id: 'b', n: 3 }, { id: 'c', m: undefined }], wrap);
  expect(new Set([first, changed, longer, other]).size).toBe(4);
  expect(changed.rows).toEqual([kept, { id: 'b', n: 3 }]);
  expect(same.of([...other.rows], wrap)).toBe(other);
});
