import type { z } from 'zod';
import { type Channel, type ChannelOutput, type ChannelParsedInput, ContractError, channels } from '../../contract';
import { UnknownPersonaError } from '../../personas/find';
import { describeLlmFailure, LlmError } from '../../ports/llm';
import { issuePath } from '../../text/zod-issues';
import { LinkRefusedError } from '../fs/read-inside';
import { UserError } from '../workspace/workspace';
import { isKept } from './index-memo';

/** A channel's handler as hosts call it: any input in, the validated output out. */
export type Handler<C extends Channel> = (input: unknown) => Promise<ChannelOutput<C>>;
export type Handlers = { readonly [C in Channel]: Handler<C> };

/** The typed body of a handler: parsed input in, output out (validated afterwards). */
export type Implementation<C extends Channel> = (
  input: ChannelParsedInput<C>,
) => ChannelOutput<C> | Promise<ChannelOutput<C>>;
export type Implementations = { readonly [C in Channel]: Implementation<C> };

/**
 * A handler returned something its output schema refuses. That is a bug in Crucible, never the
 * caller's fault: hosts answer it as `internal` and log this message.
 */
export class OutputContractError extends Error {
  constructor(
    readonly channel: Channel,
    readonly issues: string[],
  ) {
    super(`the output of ${channel} breaks the contract: ${issues.join('; ')}`);
    this.name = 'OutputContractError';
  }
}

function issueLines(error: z.ZodError): string[] {
  return error.issues.map((issue) => {
    const where = issuePath(issue.path);
    return where === '' ? issue.message : `${where}: ${issue.message}`;
  });
}

/** The first problem of some bad input, naming its field (`limits.budgetUsd`, `agents`). */
export function badInput(error: z.ZodError): ContractError {
  const issue = error.issues[0];
  if (!issue) return new ContractError('bad_input', 'the input is not valid');
  let field = issuePath(issue.path);
  let message = issue.message;
  if (issue.code === 'unrecognized_keys') {
    // The field at fault is the unknown key itself, not the object holding it.
    const key = String(issue.keys[0] ?? '');
    field = field === '' ? key : `${field}.${key}`;
    message = `is not a field of this input${issue.keys.length > 1 ? ` (nor are ${issue.keys.slice(1).join(', ')})` : ''}`;
  }
  return field === ''
    ? new ContractError('bad_input', `the input ${message.replace(/^Invalid input: /, '')}`)
    : new ContractError('bad_input', `${field}: ${message}`, field);
}

/**
 * What the caller gets for an error thrown inside a handler: a mistake in what was asked, or a model
 * call that failed (refused key, rate limit, network …), becomes a `user_error` with its one-line
 * message; a ContractError stays as it is; anything else is a bug and goes on unchanged, for the
 * host to log and to answer as `internal`.
 */
export function translateError(error: unknown): unknown {
  if (error instanceof ContractError) return error;
  // A file refused by the link rule is the folder's state, said by its path, not a bug.
  if (error instanceof UserError || error instanceof UnknownPersonaError || error instanceof LinkRefusedError) {
    const line = error.message.split('\n')[0] ?? error.message;
    return new ContractError('user_error', line);
  }
  if (error instanceof LlmError) return new ContractError('user_error', describeLlmFailure(error));
  return error;
}

/** Makes a checked output read-only all the way down, so sharing it between callers is safe. */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/**
 * A channel's handler: parses the input with the channel's schema (bad input → `bad_input` naming
 * the field), runs the implementation, and checks the output against the schema (a mismatch throws
 * OutputContractError). The parsed output is returned, so nothing unnamed ever leaves.
 */
export function wrapHandler<C extends Channel>(channel: C, implementation: Implementation<C>): Handler<C> {
  const spec = channels[channel] as unknown as { input: z.ZodType; output: z.ZodType };
  // An answer an IndexMemo keeps is the same object until the index changes: it is checked once,
  // and its checked (frozen) copy is what every caller gets meanwhile.
  const checkedKept = new WeakMap<object, unknown>();
  return async (raw) => {
    const input = spec.input.safeParse(raw);
    if (!input.success) throw badInput(input.error);
    let output: unknown;
    try {
      output = await implementation(input.data as ChannelParsedInput<C>);
    } catch (error) {
      throw translateError(error);
    }
    if (isKept(output) && checkedKept.has(output as object))
      return checkedKept.get(output as object) as ChannelOutput<C>;
    const checked = spec.output.safeParse(output);
    if (!checked.success) throw new OutputContractError(channel, issueLines(checked.error));
    if (isKept(output)) checkedKept.set(output as object, deepFreeze(checked.data));
    return checked.data as ChannelOutput<C>;
  };
}
