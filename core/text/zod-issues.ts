import type { z } from 'zod';

/** Dotted path of a zod issue, with array indices in brackets: `categories[0].criteria[2].id`. */
export function issuePath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? String(part) : `.${String(part)}`;
  }
  return out;
}

/**
 * One line per problem, each naming the file and the field, so the researcher can go straight to it.
 * Example: `taxonomy/tags.md: categories[1].tags[0].id: expected string, received number`.
 */
export function describeIssues(file: string, error: z.ZodError): string[] {
  return error.issues.map((issue) => {
    const where = issuePath(issue.path);
    return where === '' ? `${file}: ${issue.message}` : `${file}: ${where}: ${issue.message}`;
  });
}
