/** Diagnostics for the researcher and for us; never the only place a problem is reported. */
export interface Log {
  info(message: string, data?: Record<string, unknown>): void;
  warn(message: string, data?: Record<string, unknown>): void;
  error(message: string, data?: Record<string, unknown>): void;
}

export const silentLog: Log = {
  info() {},
  warn() {},
  error() {},
};
