import { describe, expect, it } from 'vitest';
import { type DebaterPersona, topClaimFor, validatePersona } from './persona';

const FILE = 'personas/p.md';
const BODY = '\nYou argue from unit economics.\n\n';

const debater = {
  id: 'skeptical-economist',
  name: 'Skeptical Economist',
  role: 'debater',
  tier: 'standard',
  defaultHorizon: '5y',
  side: 'NO',
  topClaimTemplate: '{{topic}} will not cover its costs within five years.',
  interests: ['pricing', 'margins'],
  description: 'Follows the money.',
};

/** The problems for `debater` with `changes` applied (a value of undefined removes the field). */
function problemsOf(changes: Record<string, unknown>, body = BODY): string[] {
  const data: Record<string, unknown> = { ...debater, ...changes };
  for (const [key, value] of Object.entries(changes)) if (value === undefined) delete data[key];
  const result = validatePersona(FILE, data, body);
  return result.ok ? [] : result.problems;
}

describe('a valid persona file', () => {
  it('becomes a typed persona whose system prompt is the trimmed body', () => {
    expect(validatePersona(FILE, debater, BODY)).toEqual({
      ok: true,
      persona: {
        id: 'skeptical-economist',
        name: 'Skeptical Economist',
        role: 'debater',
        tier: 'standard',
        defaultHorizon: '5y',
        side: 'NO',
        topClaimTemplate: '{{topic}} will not cover its costs within five years.',
        interests: ['pricing', 'margins'],
        description: 'Follows the money.',
        systemPrompt: 'You argue from unit economics.',
        file: FILE,
      },
    });
  });

  it('carries each role its own fields, and interests default to none outside debates', () => {
    const base = { name: 'N', tier: 'deep', description: 'D.' };
    const results = [
      validatePersona(FILE, { ...base, id: 'evaluator-risk', role: 'evaluator', category: 'risk' }, 'Score risk.'),
      validatePersona(
        FILE,
        { ...base, id: 'edge-case', role: 'red-team', mode: 'deep', interests: ['failure'] },
        'Find.',
      ),
      validatePersona(FILE, { ...base, id: 'arbiter', role: 'arbiter' }, 'Judge.'),
    ];
    expect(results).toEqual([
      {
        ok: true,
        persona: {
          ...base,
          id: 'evaluator-risk',
          role: 'evaluator',
          category: 'risk',
          interests: [],
          systemPrompt: 'Score risk.',
          file: FILE,
        },
      },
      {
        ok: true,
        persona: {
          ...base,
          id: 'edge-case',
          role: 'red-team',
          mode: 'deep',
          interests: ['failure'],
          systemPrompt: 'Find.',
          file: FILE,
        },
      },
      {
        ok: true,
        persona: { ...base, id: 'arbiter', role: 'arbiter', interests: [], systemPrompt: 'Judge.', file: FILE },
      },
    ]);
  });

  it('may leave out the side of a debater, and accepts spaces inside the placeholder', () => {
    const result = validatePersona(
      FILE,
      { ...debater, side: undefined, topClaimTemplate: 'Yes to {{ topic }}.' },
      BODY,
    );
    expect(result.ok && result.persona).toMatchObject({ topClaimTemplate: 'Yes to {{ topic }}.' });
    expect(result.ok && 'side' in result.persona).toBe(false);
  });
});

describe('an invalid persona file', () => {
  const ROLES = 'debater, evaluator, red-team, arbiter, synthesis, moderator, crystallizer, developer, classifier, judge, trickster';
  const NOT_A_KEYWORD = 'is not a keyword: use one lower-case word of 4 or more letters that is not a stop word';

  it.each<[string, Record<string, unknown>, string[]]>([
    ['a missing id', { id: undefined }, [`${FILE}: id: is missing`]],
    [
      'an id that is not kebab-case',
      { id: 'Skeptical Economist' },
      [`${FILE}: id: must be a lower-case kebab-case id such as skeptical-economist`],
    ],
    ['a name that is not text', { name: 42 }, [`${FILE}: name: must be a non-empty name`]],
    ['an unknown role', { role: 'referee' }, [`${FILE}: role: must be one of ${ROLES} (got "referee")`]],
    ['an unknown tier', { tier: 'turbo' }, [`${FILE}: tier: must be one of fast, standard, deep (got "turbo")`]],
    [
      'an unknown horizon',
      { defaultHorizon: '2y' },
      [`${FILE}: defaultHorizon: must be one of 1-3mo, 12-18mo, 5y, 10y+ (got "2y")`],
    ],
    ['an unknown side', { side: 'MAYBE' }, [`${FILE}: side: must be one of YES, NO, UNCERTAIN (got "MAYBE")`]],
    [
      'a top claim without the placeholder',
      { topClaimTemplate: 'It will pay off.' },
      [`${FILE}: topClaimTemplate: must contain the placeholder {{topic}}`],
    ],
    [
      'a top claim with a placeholder nobody fills',
      { topClaimTemplate: '{{topic}} beats {{rival}}.' },
      [`${FILE}: topClaimTemplate: has the unknown placeholder {{rival}}; only {{topic}} is filled in`],
    ],
    [
      'interests that are not a list',
      { interests: 'pricing, margins' },
      [`${FILE}: interests: must be a list of keywords, such as [pricing, margins]`],
    ],
    [
      'interests that are not keywords, or repeat',
      { interests: ['AI', 'Pricing', 'with', 'unit economics', 'margins', 'margins'] },
      [
        `${FILE}: interests[0]: "AI" ${NOT_A_KEYWORD}`,
        `${FILE}: interests[1]: "Pricing" ${NOT_A_KEYWORD}`,
        `${FILE}: interests[2]: "with" ${NOT_A_KEYWORD}`,
        `${FILE}: interests[3]: "unit economics" ${NOT_A_KEYWORD}`,
        `${FILE}: interests[5]: repeats "margins"`,
      ],
    ],
    ['a blank description', { description: '   ' }, [`${FILE}: description: must be a non-empty one-line description`]],
    [
      'a misspelt field',
      { horizon: '5y' },
      [
        `${FILE}: horizon: is not a persona field (the fields are id, name, role, tier, category, mode, defaultHorizon, side, topClaimTemplate, interests, description)`,
      ],
    ],
  ])('reports %s with its file and field', (_, changes, expected) => {
    expect(problemsOf(changes)).toEqual(expected);
  });

  it('reports an empty system prompt as the body', () => {
    expect(problemsOf({}, ' \n\n ')).toEqual([
      `${FILE}: body: the system prompt is empty: write it below the closing ---`,
    ]);
  });

  it('reports frontmatter that is not a set of fields', () => {
    expect(validatePersona(FILE, ['id: x'], BODY)).toEqual({
      ok: false,
      problems: [`${FILE}: the frontmatter must be a set of \`key: value\` lines`],
    });
  });

  it.each<[string, Record<string, unknown>, string[]]>([
    [
      'a debater without a horizon, a top claim or interests',
      { defaultHorizon: undefined, topClaimTemplate: undefined, interests: [] },
      [
        `${FILE}: defaultHorizon: is missing: a debater needs one of 1-3mo, 12-18mo, 5y, 10y+`,
        `${FILE}: topClaimTemplate: is missing: a debater needs a sentence holding {{topic}}`,
        `${FILE}: interests: a debater needs at least one keyword to be drawn into threads`,
      ],
    ],
    [
      'an evaluator without a category, still carrying debater fields',
      { role: 'evaluator' },
      [
        `${FILE}: category: is missing: an evaluator needs one of problem, solution, feasibility, fit, market, risk`,
        `${FILE}: defaultHorizon: only debaters have this field, and this persona is an evaluator`,
        `${FILE}: topClaimTemplate: only debaters have this field, and this persona is an evaluator`,
        `${FILE}: side: only debaters have this field, and this persona is an evaluator`,
      ],
    ],
    [
      'a red-team persona without a mode',
      { role: 'red-team', defaultHorizon: undefined, topClaimTemplate: undefined, side: undefined },
      [`${FILE}: mode: is missing: a red-team persona needs one of v1, deep`],
    ],
    [
      'a debater with an evaluator category and a red-team mode',
      { category: 'risk', mode: 'v1' },
      [
        `${FILE}: category: only evaluators have this field, and this persona is a debater`,
        `${FILE}: mode: only red-team personas have this field, and this persona is a debater`,
      ],
    ],
  ])('applies the role rules: %s', (_, changes, expected) => {
    expect(problemsOf(changes)).toEqual(expected);
  });

  it('reports every problem of a file at once, field by field', () => {
    expect(problemsOf({ id: 'X', tier: undefined, category: 'money', defaultHorizon: undefined }, '')).toEqual([
      `${FILE}: id: must be a lower-case kebab-case id such as skeptical-economist`,
      `${FILE}: tier: is missing`,
      `${FILE}: category: must be one of problem, solution, feasibility, fit, market, risk (got "money")`,
      `${FILE}: defaultHorizon: is missing: a debater needs one of 1-3mo, 12-18mo, 5y, 10y+`,
      `${FILE}: category: only evaluators have this field, and this persona is a debater`,
      `${FILE}: body: the system prompt is empty: write it below the closing ---`,
    ]);
  });
});

describe('topClaimFor', () => {
  it('puts the topic into every placeholder of the template', () => {
    const persona = { topClaimTemplate: '{{topic}} pays off; {{ topic }} lasts.' } as DebaterPersona;
    expect(topClaimFor(persona, 'The $& tool')).toBe('The $& tool pays off; The $& tool lasts.');
  });
});
