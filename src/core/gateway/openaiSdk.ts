import type OpenAI from 'openai';

/**
 * The OpenAI SDK, loaded when the first request needs it, not when Quorum starts: it is the largest library of
 * the extension (0.4 MB), and most of a window's life no request is sent. In the extension's bundle it is a file of
 * its own (esbuild.js: lazyModules). An error of the SDK exists only once it is loaded, so `loadedSdk` tells the
 * failure classifier what to test errors against without loading it.
 */

type Sdk = typeof OpenAI;

let loaded: Sdk | undefined;

export async function loadSdk(): Promise<Sdk> {
  loaded ??= (await import('openai')).default;
  return loaded;
}

/** The SDK's class if a request loaded it (then its errors can be told apart), else undefined. */
export function loadedSdk(): Sdk | undefined {
  return loaded;
}
