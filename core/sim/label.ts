/**
 * The mark every simulated text starts with, so no reader takes it for a model's words. In a file of
 * its own: every protocol's simulator imports it, and it imports nothing.
 */
export const SIMULATED_LABEL = '[simulated]';
