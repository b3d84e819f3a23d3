import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RELATIONSHIP_TYPES } from '../../core/idea/relationships';
import { Prng, seedOf } from './prng';
import { bullets, INVENTED, nameWords, paragraph, sentence, words } from './text';

/** The taxonomy ids a generated idea may use (read from the app's own `taxonomy/*.md`). */
export interface Vocabulary {
  types: readonly string[];
  stages: readonly string[];
  tags: readonly string[];
  criteria: readonly string[];
}

export interface GeneratedWorkspace {
  root: string;
  slugs: string[];
  /** Every generated file, relative to `root` with forward slashes. */
  files: string[];
  bytes: number;
}

const README_BYTES = 1610;
const DEVELOPMENT_BYTES = 1024;
const RESEARCH_BYTES = 1024;
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const DAY_MS = 86_400_000;
const EPOCH = Date.UTC(2024, 0, 1);

function base32(value: number, length: number): string {
  let out = '';
  let rest = value;
  for (let i = 0; i < length; i++) {
    out = CROCKFORD[rest % 32] + out;
    rest = Math.floor(rest / 32);
  }
  return out;
}

/**
 * A ULID-shaped id: a 10-character time part that grows with the index (so ids are unique by
 * construction) and 16 characters of seeded noise.
 */
function ulidLike(index: number, rng: Prng): string {
  let noise = '';
  for (let i = 0; i < 16; i++) noise += CROCKFORD[rng.int(0, 31)];
  return base32(EPOCH + index * 60_000 + rng.int(0, 59_999), 10) + noise;
}

function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Folder names: two or three words plus the index in base 36, unique by construction. */
function slugFor(index: number): string {
  const rng = new Prng(seedOf(`slug:${index}`));
  return [...nameWords(rng, rng.int(2, 3)), index.toString(36).padStart(4, '0')].join('-');
}

interface IdeaSpec {
  index: number;
  slug: string;
  title: string;
  /** Its own stream, so one idea's text never depends on how much text the others drew. */
  rng: Prng;
}

function frontmatter(spec: IdeaSpec, vocab: Vocabulary, slugs: readonly string[]): string {
  const { rng } = spec;
  const tags = rng.sample(vocab.tags, rng.int(2, 5));
  if (rng.chance(0.3)) tags.push(rng.pick(INVENTED));
  const created = EPOCH + rng.int(0, 800) * DAY_MS;
  const lines = [
    '---',
    `id: "${ulidLike(spec.index, rng)}"`,
    `slug: ${JSON.stringify(spec.slug)}`,
    `title: ${JSON.stringify(spec.title)}`,
    `type: ${rng.pick(vocab.types)}`,
    `stage: ${rng.pick(vocab.stages)}`,
    `tags: [${tags.join(', ')}]`,
    `summary: ${JSON.stringify(sentence(rng, 18, 30))}`,
    `created: ${isoDay(created)}`,
    `updated: ${isoDay(created + rng.int(0, 120) * DAY_MS)}`,
  ];
  const related = slugs.length > 1 ? rng.int(0, 2) : 0;
  if (related === 0) lines.push('relationships: []');
  else {
    lines.push('relationships:');
    const others = new Set<string>();
    while (others.size < related) {
      const other = rng.pick(slugs);
      if (other !== spec.slug) others.add(other);
    }
    for (const target of others) {
      lines.push(
        `  - target: ${JSON.stringify(target)}`,
        `    type: ${rng.pick(RELATIONSHIP_TYPES)}`,
        `    strength: ${(rng.int(1, 10) / 10).toFixed(1)}`,
        `    reason: ${JSON.stringify(sentence(rng, 8, 16))}`,
      );
    }
  }
  lines.push('---', '');
  return lines.join('\n');
}

function readme(spec: IdeaSpec, vocab: Vocabulary, slugs: readonly string[]): string {
  const { rng } = spec;
  const head = `${frontmatter(spec, vocab, slugs)}\n# ${spec.title}\n\n`;
  // The body fills what the frontmatter left of the target size, spread over the template's sections.
  const budget = Math.max(400, README_BYTES - head.length);
  const share = Math.floor(budget / 6);
  const sections = [
    paragraph(rng, share),
    `## Problem\n\n${paragraph(rng, share)}`,
    `## Who it is for\n\n${paragraph(rng, share * 0.6)}`,
    `## Proposed solution\n\n${paragraph(rng, share * 1.2)}`,
    `## Assumptions\n\n${bullets(rng, share * 0.7)}`,
    `## Open questions\n\n${bullets(rng, share * 0.5)}`,
  ];
  return `${head}${sections.join('\n\n')}\n`;
}

function development(spec: IdeaSpec, vocab: Vocabulary): string {
  const { rng } = spec;
  let text = `---\nkind: development\nidea: ${JSON.stringify(spec.slug)}\n---\n\n# Development — ${spec.title}\n`;
  let asked = EPOCH + rng.int(0, 800) * DAY_MS;
  // Blocks are 200–450 characters: stop about half a block short so the file lands near the target.
  while (text.length + 150 < DEVELOPMENT_BYTES) {
    const question = sentence(rng, 6, 12, '?');
    const meta = `asked: ${isoDay(asked)}; source: ${rng.chance(0.7) ? 'ai' : 'user'}; gap: ${rng.pick(vocab.criteria)}`;
    const answer = rng.chance(0.2) ? '_Unanswered._' : paragraph(rng, rng.int(150, 350));
    text += `\n### Q: ${question}\n<!-- ${meta} -->\n\n${answer}\n`;
    asked += rng.int(0, 20) * DAY_MS;
  }
  return text;
}

function research(spec: IdeaSpec): { name: string; text: string } {
  const { rng } = spec;
  const title = capitalise(words(rng, rng.int(4, 8)).join(' '));
  const head = [
    '---',
    'kind: research',
    `title: ${JSON.stringify(title)}`,
    `source: ${JSON.stringify(capitalise(words(rng, rng.int(5, 10)).join(' ')))}`,
    `created: ${isoDay(EPOCH + rng.int(0, 800) * DAY_MS)}`,
    '---',
    '',
    `# ${title}`,
    '',
  ].join('\n');
  const share = Math.floor((RESEARCH_BYTES - head.length) / 3);
  const body = [
    `## Findings\n\n${bullets(rng, share)}`,
    `## Evidence\n\n${paragraph(rng, share)}`,
    `## Implications\n\n${paragraph(rng, share * 0.8)}`,
  ].join('\n\n');
  return { name: `${rng.pick(INVENTED)}-${rng.pick(INVENTED)}.md`, text: `${head}\n${body}\n` };
}

function titleFor(index: number): string {
  const rng = new Prng(seedOf(`title:${index}`));
  return capitalise(words(rng, rng.int(4, 9)).join(' '));
}

/**
 * Writes `n` ideas under `<root>/ideas/`: README and development log for each, plus a research note
 * for every third one. The same `n` always yields byte-identical files.
 */
export function generateWorkspace(root: string, n: number, vocab: Vocabulary): GeneratedWorkspace {
  const slugs = Array.from({ length: n }, (_, i) => slugFor(i));
  const files: string[] = [];
  let bytes = 0;
  const put = (rel: string, text: string) => {
    writeFileSync(join(root, rel), text);
    files.push(rel);
    bytes += Buffer.byteLength(text);
  };
  mkdirSync(join(root, 'ideas'), { recursive: true });
  slugs.forEach((slug, index) => {
    const spec: IdeaSpec = { index, slug, title: titleFor(index), rng: new Prng(seedOf(`idea:${index}`)) };
    const dir = `ideas/${slug}`;
    mkdirSync(join(root, dir));
    put(`${dir}/README.md`, readme(spec, vocab, slugs));
    put(`${dir}/development.md`, development(spec, vocab));
    if (index % 3 === 0) {
      const note = research(spec);
      mkdirSync(join(root, dir, 'research'));
      put(`${dir}/research/${note.name}`, note.text);
    }
  });
  return { root, slugs, files, bytes };
}
