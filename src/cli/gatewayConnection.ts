import { CostLedger } from '../core/cost/ledger';
import { ListedPrices } from '../core/cost/listedPrices';
import { createGateway, type GatewayClient } from '../core/gateway/client';
import type { QuorumSettings } from '../core/settings/schema';

/**
 * The command line's one connection to the gateway, for a review and for an eval alike: the client, the ledger
 * that prices what it sends, and the prices the gateway lists in `/models` (which price what `quorum.prices` and
 * the table do not).
 */
export function gatewayConnection(settings: QuorumSettings, key: string): { gateway: GatewayClient; ledger: CostLedger; listedPrices: ListedPrices } {
  const listedPrices = new ListedPrices();
  const ledger = new CostLedger(() => settings.prices, () => listedPrices.for(settings.gateway.baseUrl));
  const gateway = createGateway({ settings: () => settings, apiKey: () => key, ledger, listedPrices });
  return { gateway, ledger, listedPrices };
}
