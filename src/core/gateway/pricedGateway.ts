import { CostLedger } from '../cost/ledger';
import { ListedPrices } from '../cost/listedPrices';
import { createGateway, type GatewayClient } from './client';
import type { GatewayOptions } from './options';

/**
 * The gateway client with what prices its requests, built the same way by the editor and the command line: the
 * prices the gateway lists in `/models` (learnt by the client as it reads them; they price what `quorum.prices` and
 * the table do not) and the ledger that prices every attempt with them.
 */
export function pricedGateway(options: Omit<GatewayOptions, 'ledger' | 'listedPrices'>): { gateway: GatewayClient; ledger: CostLedger; listedPrices: ListedPrices } {
  const listedPrices = new ListedPrices();
  const ledger = new CostLedger(() => options.settings().prices, () => listedPrices.for(options.settings().gateway.baseUrl));
  return { gateway: createGateway({ ...options, ledger, listedPrices }), ledger, listedPrices };
}
