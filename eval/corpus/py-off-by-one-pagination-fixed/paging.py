def page(items, number, size=10):
    """Items of page `number`, counting pages from 1."""
    if number < 1 or size < 1:
        raise ValueError("pages and sizes start at 1")
    start = (number - 1) * size
    return items[start:start + size]


def page_count(items, size=10):
    return (len(items) + size - 1) // size
