import type { AbortSignalLike } from '../../ports/llm';

/**
 * A real `AbortSignal` following the port's `AbortSignalLike` (core is compiled without DOM or Node types,
 * so the port names only what it needs). `dispose` detaches it once the call is over.
 */
export function toAbortSignal(like: AbortSignalLike | undefined): { signal?: AbortSignal; dispose: () => void } {
  if (!like) return { dispose: () => {} };
  if (like instanceof AbortSignal) return { signal: like, dispose: () => {} };
  const controller = new AbortController();
  if (like.aborted) {
    controller.abort();
    return { signal: controller.signal, dispose: () => {} };
  }
  const abort = () => controller.abort();
  like.addEventListener('abort', abort);
  return { signal: controller.signal, dispose: () => like.removeEventListener('abort', abort) };
}
