import type { Persona } from './persona';

/** A persona file that was skipped, and why (`field: what is wrong`, or why it could not be read). */
export interface PersonaLoadError {
  file: string;
  reason: string;
}

export interface LoadedPersonas {
  /** Sorted by id; a workspace persona has replaced the built-in one with the same id. */
  personas: Persona[];
  errors: PersonaLoadError[];
}

export class UnknownPersonaError extends Error {
  constructor(
    message: string,
    readonly unknown: string[],
  ) {
    super(message);
    this.name = 'UnknownPersonaError';
  }
}

/**
 * The personas with these ids, in the order asked. Unknown ids are an error that lists what is
 * available and, when some files failed to load, those files too: the one meant may be among them.
 */
export function findPersonas(ids: readonly string[], loaded: LoadedPersonas): Persona[] {
  const byId = new Map(loaded.personas.map((p) => [p.id, p]));
  const unknown = [...new Set(ids.filter((id) => !byId.has(id)))];
  if (unknown.length === 0) return ids.map((id) => byId.get(id) as Persona);
  const names = unknown.map((id) => `"${id}"`).join(', ');
  const available = loaded.personas.length > 0 ? loaded.personas.map((p) => p.id).join(', ') : 'none';
  let message = `unknown persona${unknown.length === 1 ? '' : 's'} ${names}; available: ${available}`;
  const failed = [...new Set(loaded.errors.map((e) => e.file))];
  if (failed.length > 0) message += `; these persona files failed to load: ${failed.join(', ')}`;
  throw new UnknownPersonaError(message, unknown);
}
