import json


def load_config(path):
    f = open(path, encoding="utf-8")
    data = json.load(f)
    if "version" not in data:
        raise ValueError(f"{path}: no version")
    f.close()
    return data


def load_all(paths):
    return [load_config(p) for p in paths]
