import json


def load_config(path):
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    if "version" not in data:
        raise ValueError(f"{path}: no version")
    return data


def load_all(paths):
    return [load_config(p) for p in paths]
