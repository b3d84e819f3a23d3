import type { LlmBrief } from './llm';

/**
 * A request answered by an OpenAI-compatible embeddings endpoint (`POST {url}/embeddings`) rather than
 * by a chat model: the agreement of every pair of texts, read as the cosine of their embeddings. It
 * travels through the same `Llm.call` as every other request (the one runner makes every call, meters
 * it and logs its answer), marked by this brief; the provider's embeddings wrapper answers it
 * (`core/node/llm/embeddings.ts`). The endpoint is named in the request, so a run resumed from its log
 * asks the same one; the key, if the endpoint needs one, never is (it comes from the environment).
 */
export interface PairwiseEmbeddingBrief extends LlmBrief {
  readonly protocol: 'embeddings';
  readonly kind: 'pairwise-cosine';
  /** The API root (`http://127.0.0.1:11434/v1`) or the full `…/embeddings` address, and the model. */
  readonly endpoint: EmbeddingEndpoint;
  /** The texts by id; the answer has one pair per two ids, in this order. */
  readonly texts: readonly { id: string; text: string }[];
}

export interface EmbeddingEndpoint {
  url: string;
  model: string;
}

export function isPairwiseEmbeddingBrief(brief: LlmBrief | undefined): brief is PairwiseEmbeddingBrief {
  return brief?.protocol === 'embeddings' && brief.kind === 'pairwise-cosine';
}
