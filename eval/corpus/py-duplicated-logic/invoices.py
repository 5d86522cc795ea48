def invoice_total_eu(lines):
    total = 0
    for line in lines:
        amount = line["price"] * line["qty"]
        if line.get("discount"):
            amount -= amount * line["discount"]
        total += amount
    return round(total * 1.20, 2)


def invoice_total_us(lines):
    total = 0
    for line in lines:
        amount = line["price"] * line["qty"]
        if line.get("discount"):
            amount -= amount * line["discount"]
        total += amount
    return round(total * 1.07, 2)
