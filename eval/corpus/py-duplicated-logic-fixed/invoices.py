TAX_RATES = {"eu": 0.20, "us": 0.07}


def subtotal(lines):
    total = 0
    for line in lines:
        amount = line["price"] * line["qty"]
        if line.get("discount"):
            amount -= amount * line["discount"]
        total += amount
    return total


def invoice_total(lines, region):
    return round(subtotal(lines) * (1 + TAX_RATES[region]), 2)
