import { createHash } from 'node:crypto';
import type { ChatMessage } from '../domain/chat';
import type { AgentResult } from '../domain/result';

/** What a cached agent answer holds: enough to rebuild its result without asking the gateway again. */
export type CachedAnswer = Pick<AgentResult, 'model' | 'text' | 'findings' | 'unparsed' | 'improvedCode' | 'replacements' | 'rationale'>;

/** What makes two agent requests identical: the messages carry the code, its line numbers, the inputs and the language. */
export interface CacheKeyParts {
  agent: string;
  model: string;
  fallbackModel: string;
  promptVersion: string;
  language: string;
  /** Each reviewed region's file and lines. */
  regions: readonly { file: string; startLine: number; endLine: number }[];
  messages: readonly ChatMessage[];
  maxTokens: number;
  responseFormat: boolean;
}

export function cacheKey(parts: CacheKeyParts): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}

/** Where answers are kept: in memory (`ReviewCache`) or on disk across runs (`DiskCache`). */
export interface AnswerStore {
  /** The answer stored under `key` when it is younger than `ttlMs`. */
  get(key: string, ttlMs: number): CachedAnswer | undefined;
  set(key: string, value: CachedAnswer): void;
}

interface Entry {
  storedAt: number;
  value: CachedAnswer;
}

/**
 * Agent answers kept in memory. An entry is served while it is younger than the TTL given to `get` (so the TTL
 * setting applies at once when it changes); the oldest entries go first when `maxEntries` is reached.
 */
export class ReviewCache implements AnswerStore {
  private readonly entries = new Map<string, Entry>();
  private readonly now: () => number;
  private readonly maxEntries: number;

  constructor(options: { now?: () => number; maxEntries?: number } = {}) {
    this.now = options.now ?? Date.now;
    this.maxEntries = Math.max(1, options.maxEntries ?? 256);
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: string, ttlMs: number): CachedAnswer | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    const age = this.now() - entry.storedAt;
    if (ttlMs <= 0 || age >= ttlMs || age < 0) {
      if (age >= ttlMs) this.entries.delete(key);
      return undefined;
    }
    return structuredClone(entry.value);
  }

  set(key: string, value: CachedAnswer): void {
    this.entries.delete(key);
    this.entries.set(key, { storedAt: this.now(), value: structuredClone(value) });
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.maxEntries) break;
      this.entries.delete(oldest);
    }
  }

  clear(): void {
    this.entries.clear();
  }
}
