import {
  cpSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readme, tempWorkspace, writeFile } from '../../../tests/helpers/temp-workspace';
import { MAX_MARKDOWN_BYTES } from '../../idea/layout';
import { parseMarkdown } from '../markdown';
import { importNotes } from './import-notes';
import { UserError, Workspace } from './workspace';

const FIXTURE = join(import.meta.dirname, '..', '..', '..', 'tests', 'fixtures', 'vault');

/** Every entry under `dir` (links as links) with its bytes and modification time. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    const stat = lstatSync(path);
    const bytes = stat.isFile() ? readFileSync(path).toString('base64') : stat.isSymbolicLink() ? 'link' : 'dir';
    out[relative(dir, path)] = `${stat.mtimeMs} ${stat.size} ${bytes}`;
  }
  return out;
}

/** How wide a text is shown: a CJK character takes two columns. */
function columns(text: string): number {
  let n = 0;
  for (const ch of text) n += /[\u3000-\u9fff\uff00-\uffef]/.test(ch) ? 2 : 1;
  return n;
}

interface GeneratedNote {
  file: string;
  kind: 'english' | 'plain' | 'setext' | 'fenced' | 'japanese' | 'nameless' | 'broken';
  /** The title the import must give it; null for a note that must be reported instead. */
  title: string | null;
}

/**
 * A vault of `count` notes in folders three deep, written the ways vaults are: frontmatter with a
 * title, none at all, a heading underlined, a shell comment in a code block above the heading,
 * Japanese with long unspaced paragraphs, no heading (titled by its file name), and a broken
 * frontmatter every twentieth note; wiki links throughout; pictures, canvases and `.obsidian/`
 * beside them.
 */
function generateVault(root: string, count: number): GeneratedNote[] {
  const kinds: GeneratedNote['kind'][] = ['english', 'plain', 'setext', 'fenced', 'japanese', 'nameless'];
  const notes: GeneratedNote[] = [];
  mkdirSync(join(root, '.obsidian'), { recursive: true });
  writeFileSync(join(root, '.obsidian', 'app.json'), '{}');
  for (let i = 0; i < count; i++) {
    const folder = join(`area-${i % 3}`, `topic-${i % 5}`, i % 2 ? 'deep' : '');
    mkdirSync(join(root, folder), { recursive: true });
    const kind: GeneratedNote['kind'] = i % 20 === 19 ? 'broken' : (kinds[i % kinds.length] as GeneratedNote['kind']);
    const link = `[[Note ${(i + 1) % count}]] and [[Note ${(i + 7) % count}|a neighbour]]`;
    const name = kind === 'japanese' ? `水分計-${i}.md` : `note-${i}.md`;
    const file = join(folder, name).split('\\').join('/');
    let text: string;
    let title: string | null;
    switch (kind) {
      case 'english':
        title = `Note ${i}: field notes`;
        text = `---\ntitle: "${title}"\ntags: [vault]\n---\nBody of note ${i}, linking ${link}.\n`;
        break;
      case 'plain':
        title = `Note ${i} without frontmatter`;
        text = `# ${title}\n\nPlain note ${i}, linking ${link}.\n`;
        break;
      case 'setext':
        title = `Underlined note ${i}`;
        text = `${title}\n${'='.repeat(title.length)}\n\nA note from an older editor, linking ${link}.\n`;
        break;
      case 'fenced':
        title = `Setup note ${i}`;
        text = `\`\`\`sh\n# install the sensors\nnpm install\n\`\`\`\n\n# ${title}\n\nCommands first, linking ${link}.\n`;
        break;
      case 'japanese':
        title = `水分計の校正 ${i}`;
        text = `# ${title}\n\n安価な静電容量センサーは季節ごとに校正が必要です。\n\n${'畑の区画ごとに測った値を一年分まとめて、'.repeat(6)}土壌水分${'の変化を基準のプローブと比べ、数パーセント以内に収まるかを確かめる。'.repeat(6)}${link}\n`;
        break;
      case 'nameless':
        title = `note ${i}`;
        text = `Just a line of thought ${i}, no heading, linking ${link}.\n`;
        break;
      default:
        title = null;
        text = `---\ntitle: [unclosed\n---\nBroken ${i}.\n`;
    }
    writeFileSync(join(root, file), text);
    if (i % 10 === 0) writeFileSync(join(root, folder, `picture-${i}.png`), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    if (i % 20 === 0) writeFileSync(join(root, folder, `board-${i}.canvas`), '{"nodes":[]}');
    notes.push({ file, kind, title });
  }
  return notes;
}

describe('importing a folder of notes', () => {
  let ws: Workspace;
  let cleanup: () => void;
  let scratch: string;
  let vault: string;

  beforeEach(() => {
    const temp = tempWorkspace();
    cleanup = temp.cleanup;
    // An idea already in the workspace, whose title a note of the vault repeats.
    writeFile(temp.root, 'ideas/reading-list/README.md', readme('Reading list'));
    ws = Workspace.open(temp.root);
    ws.sync();
    scratch = mkdtempSync(join(tmpdir(), 'crucible-vault-'));
    vault = join(scratch, 'vault');
    cpSync(FIXTURE, vault, { recursive: true });
    // The hostile part, made here rather than committed: bytes that are not UTF-8, a note past the
    // README limit, a link to a file outside the vault, and a title taken by an existing idea.
    writeFileSync(join(vault, 'Projects', 'latin1.md'), Buffer.from([0x23, 0x20, 0x43, 0x61, 0x66, 0xe9, 0x0a]));
    writeFileSync(join(vault, 'huge.md'), `# Huge\n\n${'x'.repeat(MAX_MARKDOWN_BYTES)}\n`);
    writeFileSync(join(scratch, 'secret.md'), '# Secret\n\nOutside the vault.\n');
    symlinkSync(join(scratch, 'secret.md'), join(vault, 'outside.md'));
    writeFileSync(join(vault, 'reading.md'), '# Reading list\n\nBooks to read.\n');
  });

  afterEach(() => {
    ws.close();
    cleanup();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('turns every note into an idea or reports it by path, and leaves the folder as it was', () => {
    const before = snapshot(vault);
    const report = importNotes(ws, vault);
    expect(snapshot(vault)).toEqual(before);

    const outside = join(scratch, 'secret.md');
    expect({ ...report, source: relative(scratch, report.source) }).toEqual({
      source: 'vault',
      created: [
        { file: 'Home.md', slug: 'home-of-the-vault', title: 'Home of the vault' },
        { file: 'Projects/Deep/kenkyu.md', slug: '研究ノート-土壌水分の測定', title: '研究ノート：土壌水分の測定' },
        { file: 'Projects/Deep/zettel-202401.md', slug: 'zettel-202401', title: 'zettel 202401' },
        { file: 'Projects/soil-sensing.md', slug: 'soil-sensing-on-a-budget', title: 'Soil sensing on a budget' },
      ],
      skipped: [],
      // In the folder's order (sorted by name, folder by folder).
      errors: [
        { file: 'Projects/latin1.md', reason: 'it is not UTF-8 text (save it as UTF-8 and import again)' },
        {
          file: 'huge.md',
          reason:
            "it is 2.0 MiB, and an idea's README holds at most 2 MiB (split the note, or attach it to an idea instead)",
        },
        {
          file: 'outside.md',
          reason: `is a symbolic link to ${outside}, outside the folder; links are not followed, so it was not imported`,
        },
        {
          file: 'reading.md',
          reason:
            'its title "Reading list" gives the folder name "reading-list", which the idea "reading-list" already has: give the note a distinct `title:` in its frontmatter (or rename "reading-list") and import again',
        },
      ],
      // .obsidian/ and the picture.
      ignored: 2,
    });

    // Indexed at once, under their titles; the note's frontmatter and wiki links kept as written.
    expect(ws.list().map((i) => [i.slug, i.title])).toContainEqual([
      '研究ノート-土壌水分の測定',
      '研究ノート：土壌水分の測定',
    ]);
    const readmeOf = (slug: string) => readFileSync(join(ws.root, 'ideas', slug, 'README.md'), 'utf8');
    const soil = parseMarkdown(readmeOf('soil-sensing-on-a-budget'));
    expect(soil.data).toMatchObject({
      title: 'Soil sensing on a budget',
      tags: ['sensors', 'farming'],
      aliases: ['soil'],
      source: 'field notebook, page 12',
      imported_from: 'vault/Projects/soil-sensing.md',
      slug: 'soil-sensing-on-a-budget',
    });
    expect(soil.body).toContain('against [[Home of the vault]] once a season');
    expect(readmeOf('home-of-the-vault')).toContain('[[研究ノート|the Japanese notes]]');
    expect(ws.errors()).toEqual([]);
  });

  it('skips the notes it imported before, so a second import adds only what is new', () => {
    const first = importNotes(ws, vault);
    writeFileSync(join(vault, 'Projects', 'new-note.md'), '# A later note\n\nWritten after the first import.\n');
    // A note renamed in its heading is still the note imported before (its id comes from its path).
    writeFileSync(join(vault, 'Home.md'), '# Home, renamed\n\nStart here.\n');
    const second = importNotes(ws, vault);
    expect(second.created).toEqual([{ file: 'Projects/new-note.md', slug: 'a-later-note', title: 'A later note' }]);
    expect(second.skipped.map((s) => [s.file, s.slug])).toEqual(first.created.map((c) => [c.file, c.slug]));
    expect(second.skipped[0]?.reason).toBe('already imported as "home-of-the-vault"; left as it is');
    expect(second.errors.map((e) => e.file)).toEqual(first.errors.map((e) => e.file));
    expect(ws.list()).toHaveLength(1 + first.created.length + 1);
  });

  it('imports a generated vault: every note an idea or reported by path, titles from the first heading, the folder untouched, CJK snippets cut', () => {
    const generated = join(scratch, 'generated');
    const notes = generateVault(generated, 120);
    const before = snapshot(generated);
    const report = importNotes(ws, generated);
    const after = snapshot(generated);

    const accounted = [...report.created, ...report.skipped, ...report.errors].map((n) => n.file).sort();
    const titles = Object.fromEntries(report.created.map((c) => [c.file, c.title]));
    const japanese = ws.search('土壌水分');
    const widths = japanese.map((h) => columns(h.snippet));
    const summaries = new Map(ws.list().map((i) => [i.title, i.summary]));
    expect({
      untouched: after,
      accounted,
      titles,
      errors: [...report.errors].sort((a, b) => (a.file < b.file ? -1 : 1)),
      ignored: report.ignored,
      japaneseHits: japanese.length,
      widest: Math.max(...widths) <= 160,
      marked: japanese.every((h) => h.snippet.includes('[土壌水分]')),
      summary: summaries.get('水分計の校正 4'),
    }).toEqual({
      untouched: before,
      accounted: notes.map((n) => n.file).sort(),
      titles: Object.fromEntries(notes.filter((n) => n.title !== null).map((n) => [n.file, n.title])),
      errors: notes
        .filter((n) => n.title === null)
        .map((n) => ({
          file: n.file,
          reason: 'bad YAML frontmatter at line 3: unexpected end of the stream within a flow collection',
        }))
        .sort((a, b) => (a.file < b.file ? -1 : 1)),
      // The vault's settings folder, its pictures and its canvas files.
      ignored: 1 + notes.length / 10 + notes.length / 20,
      japaneseHits: notes.filter((n) => n.kind === 'japanese').length,
      widest: true,
      marked: true,
      summary: '安価な静電容量センサーは季節ごとに校正が必要です。',
    });
  });

  it('refuses a folder that is not one, or that overlaps the workspace', () => {
    expect(() => importNotes(ws, join(scratch, 'secret.md'))).toThrow(UserError);
    expect(() => importNotes(ws, join(ws.root, 'ideas'))).toThrow(/overlap/);
  });
});
