import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { tempWorkspace, writeFile } from '../../../tests/helpers/temp-workspace';
import { hasVagueWord } from '../../crux/keywords';
import type { Persona } from '../../personas/persona';
import { findPersonas, loadPersonas, UnknownPersonaError } from './load-personas';

let root: string;
let cleanup: () => void;
beforeEach(() => ({ root, cleanup } = tempWorkspace()));
afterEach(() => {
  cleanup();
  vi.unstubAllEnvs();
});

/** What distinguishes a persona within its role. */
function summary(p: Persona): [string, string, string, string] {
  switch (p.role) {
    case 'debater':
      return [p.id, p.role, p.tier, `${p.defaultHorizon} ${p.side ?? '-'}`];
    case 'evaluator':
      return [p.id, p.role, p.tier, p.category];
    case 'red-team':
      return [p.id, p.role, p.tier, p.mode];
    default:
      return [p.id, p.role, p.tier, ''];
  }
}

function personaFile(fields: Record<string, string>, body = 'You judge one exchange at a time.'): string {
  const front = Object.entries(fields)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\n');
  return `---\n${front}\n---\n${body}\n`;
}

const ARBITER = { id: 'arbiter', name: 'Strict Arbiter', role: 'arbiter', tier: 'deep', description: 'Harsher.' };

describe('the built-in personas', () => {
  it('all load, each from its own file, with the expected roles, tiers and stances', () => {
    const { personas, errors } = loadPersonas(null);
    expect(errors).toEqual([]);
    expect(personas.filter((p) => p.file !== `resources/personas/${p.id}.md`).map((p) => p.file)).toEqual([]);
    expect(personas.map(summary)).toEqual([
      ['arbiter', 'arbiter', 'deep', ''],
      ['classifier', 'classifier', 'fast', ''],
      ['competitor', 'red-team', 'standard', 'deep'],
      ['contrarian', 'red-team', 'standard', 'deep'],
      ['crystallizer', 'crystallizer', 'standard', ''],
      ['developer', 'developer', 'standard', ''],
      ['edge-case', 'red-team', 'standard', 'deep'],
      ['end-user-advocate', 'debater', 'standard', '1-3mo YES'],
      ['ethicist', 'debater', 'standard', '10y+ UNCERTAIN'],
      ['evaluator-feasibility', 'evaluator', 'standard', 'feasibility'],
      ['evaluator-fit', 'evaluator', 'standard', 'fit'],
      ['evaluator-market', 'evaluator', 'standard', 'market'],
      ['evaluator-problem', 'evaluator', 'standard', 'problem'],
      ['evaluator-risk', 'evaluator', 'standard', 'risk'],
      ['evaluator-solution', 'evaluator', 'standard', 'solution'],
      ['field-researcher', 'debater', 'standard', '1-3mo UNCERTAIN'],
      ['first-principles', 'red-team', 'deep', 'v1'],
      ['historian', 'debater', 'standard', '10y+ NO'],
      ['investor', 'debater', 'standard', '12-18mo YES'],
      ['judge', 'judge', 'deep', ''],
      ['moderator', 'moderator', 'fast', ''],
      ['optimist-engineer', 'debater', 'standard', '12-18mo YES'],
      ['realist', 'red-team', 'standard', 'v1'],
      ['regulator', 'debater', 'standard', '5y NO'],
      ['skeptic', 'red-team', 'standard', 'v1'],
      ['skeptical-economist', 'debater', 'standard', '5y NO'],
      ['synthesis', 'synthesis', 'deep', ''],
      ['systems-thinker', 'debater', 'standard', '10y+ UNCERTAIN'],
      ['trickster', 'trickster', 'standard', ''],
    ]);
  });

  it('have system prompts of 120 to 300 words that hedge nowhere outside the quoted list of banned words', () => {
    const { personas } = loadPersonas(null);
    const offenders = personas.flatMap((p) => {
      const words = p.systemPrompt.split(/\s+/).length;
      const out: string[] = [];
      if (words < 120 || words > 300) out.push(`${p.id}: ${words} words`);
      if (hasVagueWord(p.systemPrompt.replace(/`[^`]*`/g, ''))) out.push(`${p.id}: hedges`);
      if (hasVagueWord(p.description) || (p.role === 'debater' && hasVagueWord(p.topClaimTemplate))) {
        out.push(`${p.id}: hedges in its frontmatter`);
      }
      return out;
    });
    expect(offenders).toEqual([]);
  });

  it('give every debater its own top claim and interests', () => {
    const debaters = loadPersonas(null).personas.filter((p) => p.role === 'debater');
    const claims = new Set(debaters.map((p) => p.topClaimTemplate));
    const interests = new Set(debaters.map((p) => [...p.interests].sort().join(' ')));
    expect({ claims: claims.size, interests: interests.size }).toEqual({ claims: 9, interests: 9 });
  });

  it('report a missing folder of built-ins instead of loading nothing in silence', () => {
    vi.stubEnv('CRUCIBLE_APP_ROOT', root);
    expect(loadPersonas(null)).toEqual({
      personas: [],
      errors: [
        {
          file: expect.stringMatching(/resources[/\\]personas$/),
          reason: 'the folder of built-in personas is missing',
        },
      ],
    });
  });
});

describe("a workspace's own personas", () => {
  it('replace the built-in persona with the same id and add new ones', () => {
    writeFile(root, 'personas/arbiter.md', personaFile(ARBITER, 'Judge harshly.'));
    writeFile(
      root,
      'personas/nurse.md',
      personaFile({
        id: 'clinic-nurse',
        name: 'Clinic Nurse',
        role: 'debater',
        tier: 'fast',
        defaultHorizon: '1-3mo',
        topClaimTemplate: '"Nurses will use {{topic}} every shift."',
        interests: '[shifts, charting]',
        description: 'Works the ward.',
      }),
    );
    const builtIns = loadPersonas(null).personas;
    const { personas, errors } = loadPersonas(root);
    expect(errors).toEqual([]);
    expect(personas.map((p) => p.id)).toEqual([...builtIns.map((p) => p.id), 'clinic-nurse'].sort());
    expect(personas.filter((p) => p.file.startsWith(root))).toEqual([
      {
        ...ARBITER,
        interests: [],
        systemPrompt: 'Judge harshly.',
        file: join(root, 'personas', 'arbiter.md'),
      },
      {
        id: 'clinic-nurse',
        name: 'Clinic Nurse',
        role: 'debater',
        tier: 'fast',
        defaultHorizon: '1-3mo',
        topClaimTemplate: 'Nurses will use {{topic}} every shift.',
        interests: ['shifts', 'charting'],
        description: 'Works the ward.',
        systemPrompt: 'You judge one exchange at a time.',
        file: join(root, 'personas', 'nurse.md'),
      },
    ]);
  });

  it('are reported with file and field when invalid, skipped, and the rest still load', () => {
    writeFile(root, 'personas/arbiter.md', personaFile({ ...ARBITER, tier: 'turbo' }));
    writeFile(root, 'personas/broken.md', '---\nid: broken\nname: [unclosed\n---\nBody.\n');
    writeFile(root, 'personas/empty.md', personaFile({ ...ARBITER, id: 'quiet-judge' }, ''));
    writeFile(root, 'personas/good.md', personaFile({ ...ARBITER, id: 'second-arbiter' }));
    const { personas, errors } = loadPersonas(root);
    expect(errors).toEqual([
      { file: join(root, 'personas', 'arbiter.md'), reason: 'tier: must be one of fast, standard, deep (got "turbo")' },
      {
        file: join(root, 'personas', 'broken.md'),
        reason: expect.stringMatching(/^bad YAML frontmatter at line \d+: /),
      },
      {
        file: join(root, 'personas', 'empty.md'),
        reason: 'body: the system prompt is empty: write it below the closing ---',
      },
    ]);
    const byId = new Map(personas.map((p) => [p.id, p.file]));
    expect({
      arbiter: byId.get('arbiter'),
      second: byId.get('second-arbiter'),
      count: personas.length,
    }).toEqual({
      arbiter: 'resources/personas/arbiter.md',
      second: join(root, 'personas', 'good.md'),
      count: loadPersonas(null).personas.length + 1,
    });
  });

  it('may not share an id within the folder: every file claiming it is reported and none wins', () => {
    writeFile(root, 'personas/a.md', personaFile(ARBITER));
    writeFile(root, 'personas/b.md', personaFile(ARBITER));
    writeFile(root, 'personas/README.md', 'How we write our personas.\n');
    writeFile(root, 'personas/notes.txt', 'not a persona');
    const { personas, errors } = loadPersonas(root);
    const a = join(root, 'personas', 'a.md');
    const b = join(root, 'personas', 'b.md');
    const rule = 'ids must be unique within a folder, so none of them was loaded';
    expect(errors).toEqual([
      { file: a, reason: `id: "arbiter" is also the id of ${b}; ${rule}` },
      { file: b, reason: `id: "arbiter" is also the id of ${a}; ${rule}` },
    ]);
    expect(personas.find((p) => p.id === 'arbiter')?.file).toBe('resources/personas/arbiter.md');
  });

  it('are optional: a workspace without a personas folder gets the built-ins', () => {
    expect(loadPersonas(root)).toEqual(loadPersonas(null));
  });
});

describe('findPersonas', () => {
  it('returns the personas asked for, in the order asked', () => {
    const found = findPersonas(['skeptic', 'arbiter', 'realist'], loadPersonas(null));
    expect(found.map((p) => p.file)).toEqual([
      'resources/personas/skeptic.md',
      'resources/personas/arbiter.md',
      'resources/personas/realist.md',
    ]);
  });

  it('names the unknown ids, what is available, and the files that failed to load', () => {
    const loaded = {
      personas: loadPersonas(null).personas.filter((p) => p.id === 'arbiter' || p.id === 'skeptic'),
      errors: [
        { file: 'ws/personas/nurse.md', reason: 'tier: is missing' },
        { file: 'ws/personas/nurse.md', reason: 'name: is missing' },
      ],
    };
    let thrown: unknown;
    try {
      findPersonas(['skeptic', 'clinic-nurse', 'dean', 'dean'], loaded);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(UnknownPersonaError);
    expect({
      message: (thrown as UnknownPersonaError).message,
      unknown: (thrown as UnknownPersonaError).unknown,
    }).toEqual({
      message:
        'unknown personas "clinic-nurse", "dean"; available: arbiter, skeptic; these persona files failed to load: ws/personas/nurse.md',
      unknown: ['clinic-nurse', 'dean'],
    });
    expect(() => findPersonas(['x'], { personas: [], errors: [] })).toThrow('unknown persona "x"; available: none');
  });
});
