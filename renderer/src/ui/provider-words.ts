/** Who answers an agent's call, in words a researcher reads beside the button that makes it. */
export const PROVIDER_WORDS: Record<string, string> = {
  simulated: 'the offline simulator (free; its answers are canned, not a model’s)',
  anthropic: 'Anthropic',
  openai: 'the local OpenAI-compatible server',
};
