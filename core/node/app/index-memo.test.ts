import { afterEach, expect, it } from 'vitest';
import { readme, tempWorkspace, writeFile } from '../../../tests/helpers/temp-workspace';
import { Workspace } from '../workspace/workspace';
import { IndexMemo } from './index-memo';

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
