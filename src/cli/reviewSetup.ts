import { collectChanges } from '../core/changes/collect';
import { GitCliSource } from '../core/changes/gitCli';
import { planChanges, type ChangesPlan } from '../core/changes/plan';
import type { ChangeRequest } from '../core/changes/types';
import type { CostLedger } from '../core/cost/ledger';
import type { ListedPrices } from '../core/cost/listedPrices';
import type { GatewayClient } from '../core/gateway/client';
import { pricedGateway } from '../core/gateway/pricedGateway';
import { RequestShapes } from '../core/gateway/shape';
import { shapeFile } from '../core/gateway/shapeFile';
import { DiskCache, urlSecrets } from '../core/pipeline/diskCache';
import { ReviewPipeline } from '../core/pipeline/pipeline';
import type { QuorumSettings } from '../core/settings/schema';
import { loadTokenizer } from '../core/tokens/count';
import type { ReviewArgs } from './args';
import { defaultCacheDir } from '../core/util/cacheDir';

/** What `quorum review` and `quorum mcp` set up the same way before a review: the changes read, the pipeline built. */

/**
 * A repository's changes, read with git and cut into batches: the whole repository whatever folder of it `dir`
 * is. Throws `ChangesError` (not a repository, an unknown ref). `warn` gets what the reader should know.
 */
export async function readChanges(dir: string, request: ChangeRequest, settings: QuorumSettings, warn: (line: string) => void): Promise<{ changes: ChangesPlan; root: string }> {
  // The estimate needs the tokenizer (0.1–0.15 s of CPU to load): it loads in the gaps while git runs.
  void loadTokenizer();
  const source = await GitCliSource.open(dir);
  const set = await collectChanges(source, request, { maxFileBytes: settings.changes.maxFileKb * 1024 });
  if (source.untrackedLeftOut) warn('untracked files are left out: status.showUntrackedFiles is "no" in the git config');
  return { changes: planChanges(set, { contextLines: settings.changes.contextLines, batchTokens: settings.changes.batchTokens }), root: source.root };
}

/**
 * The gateway client with its prices and ledger, the disk cache (shared by runs and by CI jobs that keep the
 * folder; `--no-cache` or a TTL of 0 leaves it alone) and the pipeline over them, from the command line's flags.
 */
export function cliPipeline(
  args: Pick<ReviewArgs, 'noCache' | 'cacheDir' | 'cacheTtl'>,
  env: Readonly<Record<string, string | undefined>>,
  key: string,
  baseUrl: string,
  settings: QuorumSettings,
): { gateway: GatewayClient; ledger: CostLedger; listedPrices: ListedPrices; cache: DiskCache | undefined; pipeline: ReviewPipeline } {
  // Learned request shapes are kept in the cache folder, so that the next run sends them right the first time.
  const shapes = new RequestShapes(shapeFile(args.cacheDir ?? defaultCacheDir(env)));
  const { gateway, ledger, listedPrices } = pricedGateway({ settings: () => settings, apiKey: () => key, keyOptionalOnLoopback: true, shapes });
  const cache = args.noCache || args.cacheTtl === 0 ? undefined : new DiskCache({ dir: args.cacheDir ?? defaultCacheDir(env), secrets: [key, ...urlSecrets(baseUrl)] });
  const cacheTtlMs = args.cacheTtl * 60_000;
  const pipeline = new ReviewPipeline({ gateway, settings: () => settings, ...(cache ? { cache } : {}), cacheTtlMs: () => cacheTtlMs, ledger, listedPrices });
  return { gateway, ledger, listedPrices, cache, pipeline };
}
