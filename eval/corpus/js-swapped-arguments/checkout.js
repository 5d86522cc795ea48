import { chargeCustomer } from './billing.js';
import { markPaid, loadOrder } from './orders.js';

/** Charges an order once and records the payment. */
export async function payOrder(orderId) {
  const order = await loadOrder(orderId);
  if (order.status === 'paid') return order;

  const totalCents = order.items.reduce((sum, item) => sum + item.priceCents * item.quantity, 0);
  const charge = await chargeCustomer(totalCents, order.customerId);

  return markPaid(order.id, charge.id, totalCents);
}
