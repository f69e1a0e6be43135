"""Write each harness's seed inputs into fuzz/corpus/<name>/ (one file per input).

    python fuzz/seed.py
"""
import hashlib
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

for name in ("notation", "jsonl", "batch", "game", "botstate", "logs"):
    mod = __import__(f"fuzz_{name}")
    d = os.path.join(HERE, "corpus", name)
    os.makedirs(d, exist_ok=True)
    for data in mod.seeds():
        with open(os.path.join(d, hashlib.sha1(data).hexdigest()), "wb") as f:
            f.write(data)
    print(f"{name}: {len(os.listdir(d))} inputs in {d}")
