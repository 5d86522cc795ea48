import { isLoopbackUrl } from './baseUrl';

/**
 * Whether a gateway on this machine asks for a key. Local servers (Ollama, LM Studio, llama.cpp, vLLM) take
 * none, but a LiteLLM proxy or a relay run locally may: `GET /models` without a key tells — 401 or 403 says
 * it wants one. Anything else (an answer, no answer, no server) lets the review go on without a key: its own
 * requests say what is wrong. A base URL elsewhere always needs a key.
 */
export async function needsKey(baseUrl: string, options: { signal?: AbortSignal; headers?: Record<string, string>; fetch?: typeof fetch } = {}): Promise<boolean> {
  if (!isLoopbackUrl(baseUrl)) return true;
  const signals = [AbortSignal.timeout(5_000), ...(options.signal ? [options.signal] : [])];
  try {
    const response = await (options.fetch ?? fetch)(`${baseUrl.trim().replace(/\/+$/, '')}/models`, { headers: options.headers ?? {}, signal: AbortSignal.any(signals) });
    await response.body?.cancel().catch(() => undefined);
    return response.status === 401 || response.status === 403;
  } catch {
    return false;
  }
}
