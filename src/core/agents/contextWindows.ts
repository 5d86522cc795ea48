/**
 * Context windows (prompt + answer tokens) of models that gateways commonly serve. Matched on the model id
 * without a provider prefix (`openai/gpt-4.1` → `gpt-4.1`), longest known prefix first; unknown models get
 * DEFAULT_CONTEXT_WINDOW.
 */
export const DEFAULT_CONTEXT_WINDOW = 128_000;

const WINDOWS: ReadonlyArray<readonly [string, number]> = [
  ['gpt-4.1', 1_047_576],
  ['gpt-4o', 128_000],
  ['gpt-4.5', 128_000],
  ['gpt-4-turbo', 128_000],
  ['gpt-4', 8_192],
  ['gpt-3.5-turbo', 16_385],
  ['gpt-5', 400_000],
  ['o1-mini', 128_000],
  ['o1', 200_000],
  ['o3', 200_000],
  ['o4-mini', 200_000],
  ['claude', 200_000],
  ['gemini-1.5-pro', 2_097_152],
  ['gemini-1.5', 1_048_576],
  ['gemini-2', 1_048_576],
  ['gemini-3', 1_048_576],
  ['deepseek', 128_000],
  ['qwen', 131_072],
  ['llama-3', 128_000],
  ['llama-4', 1_000_000],
  ['mistral-large', 128_000],
  ['codestral', 256_000],
  ['grok-4', 256_000],
  ['grok-3', 131_072],
  ['kimi-k2', 131_072],
  ['glm-4', 128_000],
];

const SORTED = [...WINDOWS].sort((a, b) => b[0].length - a[0].length);

export function contextWindowFor(model: string): number {
  const id = (model.split('/').pop() ?? model).toLowerCase();
  for (const [prefix, size] of SORTED) if (id.startsWith(prefix)) return size;
  return DEFAULT_CONTEXT_WINDOW;
}
