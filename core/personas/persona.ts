import { z } from 'zod';
import { keywords } from '../crux/keywords';
import { HORIZONS, type Horizon, SIDES, type Side } from '../crux/vocabulary';
import type { ModelTier } from '../ports/llm';
import { issuePath } from '../text/zod-issues';

/**
 * A persona is one markdown file: YAML frontmatter describing the agent, and the system prompt as the
 * body. This module checks one file's parsed content; reading folders is `core/node/personas`.
 */

export const PERSONA_ROLES = [
  'debater',
  'evaluator',
  'red-team',
  'arbiter',
  'synthesis',
  'moderator',
  'crystallizer',
  'developer',
  'classifier',
  'judge',
  'trickster',
] as const;
export type PersonaRole = (typeof PERSONA_ROLES)[number];

export const MODEL_TIERS = ['fast', 'standard', 'deep'] as const satisfies readonly ModelTier[];
// Fails to compile when ModelTier gains a tier this list lacks.
const everyTierListed: Record<Exclude<ModelTier, (typeof MODEL_TIERS)[number]>, never> = {};
void everyTierListed;

/** The six categories of the evaluation matrix, one evaluator each. */
export const EVALUATION_CATEGORIES = ['problem', 'solution', 'feasibility', 'fit', 'market', 'risk'] as const;
export type EvaluationCategory = (typeof EVALUATION_CATEGORIES)[number];

/** `v1` red-teamers take part in every evaluation mode; `deep` ones only in deep mode. */
export const RED_TEAM_MODES = ['v1', 'deep'] as const;
export type RedTeamMode = (typeof RED_TEAM_MODES)[number];

/** The frontmatter fields, in the order a persona file lists them. */
export const PERSONA_FIELDS = [
  'id',
  'name',
  'role',
  'tier',
  'category',
  'mode',
  'defaultHorizon',
  'side',
  'topClaimTemplate',
  'interests',
  'description',
] as const;

interface PersonaBase {
  id: string;
  name: string;
  tier: ModelTier;
  description: string;
  /** Keywords for attention scoring: each is exactly one keyword as the crux protocol extracts them. */
  interests: string[];
  /** The body of the file, trimmed. */
  systemPrompt: string;
  /** Where the persona was read from, as shown to the researcher. */
  file: string;
}

export interface DebaterPersona extends PersonaBase {
  role: 'debater';
  defaultHorizon: Horizon;
  /** One sentence holding `{{topic}}`: the stance the debater takes up unless told otherwise. */
  topClaimTemplate: string;
  /** The side its top claim takes on the topic, when it has a tendency. */
  side?: Side;
}

export interface EvaluatorPersona extends PersonaBase {
  role: 'evaluator';
  category: EvaluationCategory;
}

export interface RedTeamPersona extends PersonaBase {
  role: 'red-team';
  mode: RedTeamMode;
}

export interface OtherPersona extends PersonaBase {
  role: Exclude<PersonaRole, 'debater' | 'evaluator' | 'red-team'>;
}

export type Persona = DebaterPersona | EvaluatorPersona | RedTeamPersona | OtherPersona;

/** One problem with a persona file: the field (`body` for the system prompt) and what is wrong. */
export interface PersonaIssue {
  field: string;
  message: string;
}

export type PersonaCheck = { ok: true; persona: Persona } | { ok: false; problems: string[] };

const missingOr =
  (otherwise: string) =>
  (issue: { input?: unknown }): string =>
    issue.input === undefined ? 'is missing' : otherwise;

const text = (what: string) =>
  z
    .string({ error: missingOr(`must be ${what}`) })
    .trim()
    .min(1, `must be ${what}`);

function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
  const list = values.join(', ');
  return z.enum(values, {
    error: (issue) =>
      issue.input === undefined ? 'is missing' : `must be one of ${list} (got ${JSON.stringify(issue.input)})`,
  });
}

const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;

const interest = z.string({ error: 'must be a keyword (text)' }).refine(
  (value) => {
    const found = keywords(value);
    return found.length === 1 && found[0] === value;
  },
  {
    error: (issue) =>
      `${JSON.stringify(issue.input)} is not a keyword: use one lower-case word of 4 or more letters that is not a stop word`,
  },
);

export const personaFrontmatterSchema = z.strictObject(
  {
    id: z
      .string({ error: missingOr('a lower-case kebab-case id such as skeptical-economist') })
      .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'must be a lower-case kebab-case id such as skeptical-economist'),
    name: text('a non-empty name'),
    role: oneOf(PERSONA_ROLES),
    tier: oneOf(MODEL_TIERS),
    category: oneOf(EVALUATION_CATEGORIES).optional(),
    mode: oneOf(RED_TEAM_MODES).optional(),
    defaultHorizon: oneOf(HORIZONS).optional(),
    side: oneOf(SIDES).optional(),
    topClaimTemplate: text('a sentence holding {{topic}}')
      .refine((value) => /\{\{\s*topic\s*\}\}/.test(value), 'must contain the placeholder {{topic}}')
      .superRefine((value, ctx) => {
        for (const match of value.matchAll(PLACEHOLDER)) {
          if (match[1] !== 'topic') {
            ctx.addIssue({
              code: 'custom',
              message: `has the unknown placeholder ${match[0]}; only {{topic}} is filled in`,
            });
          }
        }
      })
      .optional(),
    interests: z
      .array(interest, { error: 'must be a list of keywords, such as [pricing, margins]' })
      .superRefine((list, ctx) => {
        list.forEach((value, index) => {
          if (list.indexOf(value) < index)
            ctx.addIssue({ code: 'custom', path: [index], message: `repeats "${value}"` });
        });
      })
      .default([]),
    description: text('a non-empty one-line description'),
  },
  {
    error: (issue) =>
      issue.code === 'invalid_type' ? 'the frontmatter must be a set of `key: value` lines' : undefined,
  },
);

type Frontmatter = z.infer<typeof personaFrontmatterSchema>;

/** Which optional fields each role needs, and which it may carry at all. */
const ROLE_FIELDS: Readonly<Record<PersonaRole, { needs: readonly string[]; allows: readonly string[] }>> = {
  debater: { needs: ['defaultHorizon', 'topClaimTemplate'], allows: ['defaultHorizon', 'topClaimTemplate', 'side'] },
  evaluator: { needs: ['category'], allows: ['category'] },
  'red-team': { needs: ['mode'], allows: ['mode'] },
  arbiter: { needs: [], allows: [] },
  synthesis: { needs: [], allows: [] },
  moderator: { needs: [], allows: [] },
  crystallizer: { needs: [], allows: [] },
  developer: { needs: [], allows: [] },
  classifier: { needs: [], allows: [] },
  judge: { needs: [], allows: [] },
  trickster: { needs: [], allows: [] },
};

const ROLE_NAMES: Readonly<Record<PersonaRole, string>> = {
  debater: 'a debater',
  evaluator: 'an evaluator',
  'red-team': 'a red-team persona',
  arbiter: 'an arbiter',
  synthesis: 'a synthesis persona',
  moderator: 'a moderator',
  crystallizer: 'a crystallizer',
  developer: 'a developer',
  classifier: 'a classifier',
  judge: 'an arena judge',
  trickster: 'a trickster',
};

const NEEDED: Readonly<Record<string, string>> = {
  defaultHorizon: `one of ${HORIZONS.join(', ')}`,
  topClaimTemplate: 'a sentence holding {{topic}}',
  category: `one of ${EVALUATION_CATEGORIES.join(', ')}`,
  mode: `one of ${RED_TEAM_MODES.join(', ')}`,
};

const ONLY_FOR: Readonly<Record<string, string>> = {
  defaultHorizon: 'debaters',
  topClaimTemplate: 'debaters',
  side: 'debaters',
  category: 'evaluators',
  mode: 'red-team personas',
};

/** The rules that tie fields to the role; they only look at presence, the schema judges the values. */
function roleIssues(data: Record<string, unknown>): PersonaIssue[] {
  const role = data.role;
  if (typeof role !== 'string' || !(PERSONA_ROLES as readonly string[]).includes(role)) return [];
  const rules = ROLE_FIELDS[role as PersonaRole];
  const who = ROLE_NAMES[role as PersonaRole];
  const issues: PersonaIssue[] = [];
  for (const field of rules.needs) {
    if (data[field] === undefined) issues.push({ field, message: `is missing: ${who} needs ${NEEDED[field]}` });
  }
  for (const field of Object.keys(ONLY_FOR)) {
    if (data[field] !== undefined && !rules.allows.includes(field)) {
      issues.push({ field, message: `only ${ONLY_FOR[field]} have this field, and this persona is ${who}` });
    }
  }
  if (role === 'debater' && Array.isArray(data.interests) && data.interests.length === 0) {
    issues.push({ field: 'interests', message: 'a debater needs at least one keyword to be drawn into threads' });
  }
  return issues;
}

function toPersona(front: Frontmatter, systemPrompt: string, file: string): Persona {
  const base = {
    id: front.id,
    name: front.name,
    tier: front.tier,
    description: front.description,
    interests: front.interests,
    systemPrompt,
    file,
  };
  switch (front.role) {
    case 'debater':
      return {
        ...base,
        role: 'debater',
        defaultHorizon: front.defaultHorizon as Horizon,
        topClaimTemplate: front.topClaimTemplate as string,
        ...(front.side ? { side: front.side } : {}),
      };
    case 'evaluator':
      return { ...base, role: 'evaluator', category: front.category as EvaluationCategory };
    case 'red-team':
      return { ...base, role: 'red-team', mode: front.mode as RedTeamMode };
    default:
      return { ...base, role: front.role };
  }
}

/**
 * Every problem of one persona file, each with its field; `persona` is set when there are none.
 * `data` is the parsed frontmatter, `body` the text after it (the system prompt).
 */
export function inspectPersona(
  file: string,
  data: unknown,
  body: string,
): { persona: Persona; issues: [] } | { persona: null; issues: PersonaIssue[] } {
  const issues: PersonaIssue[] = [];
  const parsed = personaFrontmatterSchema.safeParse(data);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      if (issue.code === 'unrecognized_keys') {
        for (const key of issue.keys) {
          issues.push({ field: key, message: `is not a persona field (the fields are ${PERSONA_FIELDS.join(', ')})` });
        }
      } else {
        issues.push({ field: issuePath(issue.path), message: issue.message });
      }
    }
  }
  if (data !== null && typeof data === 'object' && !Array.isArray(data)) {
    issues.push(...roleIssues(data as Record<string, unknown>));
  }
  const systemPrompt = body.trim();
  if (systemPrompt === '') {
    issues.push({ field: 'body', message: 'the system prompt is empty: write it below the closing ---' });
  }
  if (issues.length > 0 || !parsed.success) return { persona: null, issues };
  return { persona: toPersona(parsed.data, systemPrompt, file), issues: [] };
}

/** `tier: must be one of …`: the field, then what is wrong with it. */
export function personaIssueText(issue: PersonaIssue): string {
  return issue.field === '' ? issue.message : `${issue.field}: ${issue.message}`;
}

/** One line per problem, each naming the file and the field: `personas/x.md: tier: must be one of …`. */
export function describePersonaIssue(file: string, issue: PersonaIssue): string {
  return `${file}: ${personaIssueText(issue)}`;
}

export function validatePersona(file: string, data: unknown, body: string): PersonaCheck {
  const { persona, issues } = inspectPersona(file, data, body);
  if (persona) return { ok: true, persona };
  return { ok: false, problems: issues.map((issue) => describePersonaIssue(file, issue)) };
}

/** A debater's default top claim for a topic. */
export function topClaimFor(persona: DebaterPersona, topic: string): string {
  return persona.topClaimTemplate.replace(/\{\{\s*topic\s*\}\}/g, () => topic);
}

/**
 * A debater's top claim about an idea, drawn from the idea's own summary rather than its title: the
 * crux is judged by whether it would flip these claims, so they must be about what the idea sets out
 * to do. The persona's side decides which way the claim points; its prompt supplies the angle.
 */
export function topClaimOnIdea(side: Side, summary: string): string {
  const said = summary.trim().replace(/\.$/, '');
  switch (side) {
    case 'YES':
      return `What the idea sets out holds up as planned: ${said}.`;
    case 'NO':
      return `What the idea sets out does not hold up as planned: ${said}.`;
    case 'UNCERTAIN':
      return `Whether what the idea sets out holds up as planned cannot be told before it is tested: ${said}.`;
  }
}
