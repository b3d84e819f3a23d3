import { z } from 'zod';

/**
 * How a call fails, the same for every host. A handler raises the first three; a host adds the rest
 * for problems with the request itself (who sent it, how) rather than with the call.
 */
export const HANDLER_ERROR_CODES = ['bad_input', 'unknown_channel', 'user_error'] as const;
export const HOST_ERROR_CODES = [
  'internal',
  'unauthorized',
  'forbidden',
  'bad_host',
  'not_found',
  'method_not_allowed',
  'unsupported_media_type',
  'too_large',
] as const;
export const ERROR_CODES = [...HANDLER_ERROR_CODES, ...HOST_ERROR_CODES] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** An error as it crosses a boundary: plain data, never a stack. */
export const wireErrorSchema = z.strictObject({
  code: z.enum(ERROR_CODES),
  message: z.string(),
  /** For `bad_input`: the input field that is wrong, dotted (`limits.budgetUsd`, `agents[2]`). */
  field: z.string().optional(),
});
export type WireError = z.infer<typeof wireErrorSchema>;

/**
 * A failure the caller is meant to see and act on: bad input (with the field), an unknown channel,
 * or a mistake in what was asked (unknown idea, bad stage …) as one line. Anything else thrown by a
 * handler is a bug, and hosts report it as `internal` without details.
 */
export class ContractError extends Error {
  readonly code: ErrorCode;
  readonly field: string | undefined;

  constructor(code: ErrorCode, message: string, field?: string) {
    super(message);
    this.name = 'ContractError';
    this.code = code;
    this.field = field;
  }

  toWire(): WireError {
    return { code: this.code, message: this.message, ...(this.field !== undefined ? { field: this.field } : {}) };
  }

  static fromWire(error: WireError): ContractError {
    return new ContractError(error.code, error.message, error.field);
  }
}

export const INTERNAL_ERROR_MESSAGE = 'internal error: Crucible hit a bug; the details are in its log';

/** What a host sends for any thrown value: a ContractError as it is, anything else as `internal`. */
export function toWireError(error: unknown): WireError {
  if (error instanceof ContractError) return error.toWire();
  return { code: 'internal', message: INTERNAL_ERROR_MESSAGE };
}

/** The envelope of every answer over HTTP: `{ok: true, value}` or `{ok: false, error}`. */
export function rpcResponseSchema<T extends z.ZodType>(value: T) {
  return z.discriminatedUnion('ok', [
    z.strictObject({ ok: z.literal(true), value }),
    z.strictObject({ ok: z.literal(false), error: wireErrorSchema }),
  ]);
}
