/** Time, through a port so tests can pin it. */
export interface Clock {
  now(): Date;
}
