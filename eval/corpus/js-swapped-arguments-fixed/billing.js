import { gateway } from './gateway.js';

/**
 * Charges a customer's card on file.
 * @param {string} customerId the customer's id (e.g. "cus_123")
 * @param {number} amountCents the amount in cents, a positive integer
 */
export async function chargeCustomer(customerId, amountCents) {
  if (!Number.isInteger(amountCents) || amountCents <= 0) throw new RangeError('amountCents must be a positive integer');
  return gateway.post('/charges', { customer: String(customerId), amount: amountCents });
}
