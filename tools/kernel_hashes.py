"""Hashes of everything the fan kernel answers on the generated corpus, to
show that two builds score identically (a refactoring of the kernel must not
change a single answer).

    python tools/kernel_hashes.py ROOT [N]      # N records, 1,000,000 by default

ROOT holds a built mjfast package and the repo's tests/ (a checkout after
``build_ext --inplace``).  Prints one JSON object; run it for both builds and
compare.  Covered: score_batch under mcr, dazhong and the knitted-straight
option (totals and fan counts), score() on a fifth of the records (total, fans,
form and the reading), decompose() on the same, and two-player (score() and
score_batch) on the records that use only its tiles.  Every other registered
rule set (the ones scored by their own Python predicates) is covered on the
first M records (``--others M``, 20,000 by default): score() and score_batch,
each strict and not, with every row's total, fans, legality, ignored flags and
error message.
``flags_<rule set>``:
every rule set on a fiftieth of the records with the flags the rules may drop
set by turns (kong, fourth_tile, last_tile, self_drawn, some of the rule set's
own), score() strict and not, and score_batch: totals, fans, the ignored
flags with their reasons, and every error's type and message.
"""
import hashlib
import json
import sys

args = [a for a in sys.argv[1:] if not a.startswith("--others")]
others_n = next((int(a.split("=", 1)[1]) for a in sys.argv[1:] if a.startswith("--others=")), 20_000)
root = args[0]
n = int(args[1]) if len(args) > 1 else 1_000_000
sys.path.insert(0, root)
sys.path.insert(1, root + "/tests")
import numpy as np  # noqa: E402
import mjfast  # noqa: E402
import handgen  # noqa: E402
from mjfast import rules as R  # noqa: E402


def _digest(r):
    return hashlib.sha256(np.ascontiguousarray(r.totals).tobytes()
                          + np.ascontiguousarray(r.fan_counts).tobytes()).hexdigest()


res = {}
recs = list(handgen.iter_winning_records(n, seed=2026))
b = mjfast.HandBatch.from_records(recs)
knit = R.get("mcr").with_options(knitted_straight_wait="not_scored")
for name, rs in (("mcr", "mcr"), ("dazhong", "dazhong"), ("knit", knit)):
    res["batch_" + name] = _digest(mjfast.score_batch(b, workers=1, rules=rs))
# score(): total, fans, form and the reading, per hand (a sample)
h = hashlib.sha256()
for rec in recs[: n // 5]:
    kw = {k: v for k, v in rec.items() if k not in ("hand", "id")}
    s = mjfast.score(rec["hand"], **kw)
    h.update(repr((s.total, [(f.name, f.count) for f in s.fans], s.form, s.decomposition)).encode())
res["score"] = h.hexdigest()
# decompose(): every reading
h = hashlib.sha256()
for rec in recs[: n // 5]:
    try:
        h.update(repr(mjfast.decompose(rec["hand"])).encode())
    except mjfast.InvalidHand as e:
        h.update(repr(type(e)).encode())
res["decompose"] = h.hexdigest()
# two-player on the generator's hands that use only its tiles
h = hashlib.sha256()
k = 0
for rec in recs:
    if any(ch in rec["hand"] for ch in "ps"):
        continue
    kw = {kk: v for kk, v in rec.items() if kk not in ("hand", "id")}
    try:
        s = mjfast.score(rec["hand"], rules="two_player", **kw)
        h.update(repr((s.total, [(f.name, f.count) for f in s.fans], s.form, s.decomposition)).encode())
    except (mjfast.InvalidHand, mjfast.NotWinning) as e:
        h.update(repr((type(e).__name__, str(e))).encode())
    k += 1
res["two_player"] = h.hexdigest()
res["n_two_player"] = k
tp = [rec for rec in recs if not any(ch in rec["hand"] for ch in "ps")]
if tp:
    tb = mjfast.HandBatch.from_records(tp)
    res["batch_two_player"] = _digest(mjfast.score_batch(tb, workers=1, rules="two_player"))
# every other rule set, on a sample (their engines are Python)
done = {"mcr", "dazhong", "two_player"}
sample = recs[:others_n]
sb = mjfast.HandBatch.from_records(sample)
for name in R.available():
    if name in done:
        continue
    for strict in (False, True):
        h = hashlib.sha256()
        for rec in sample:
            kw = {kk: v for kk, v in rec.items() if kk not in ("hand", "id")}
            try:
                s = mjfast.score(rec["hand"], rules=name, strict=strict, **kw)
                h.update(repr((s.total, [(f.name, f.count) for f in s.fans], s.is_legal_win,
                               sorted(s.ignored_flags.items()))).encode())
            except (mjfast.InvalidHand, mjfast.NotWinning) as e:
                h.update(repr((type(e).__name__, str(e))).encode())
        res[f"score_{name}{'_strict' if strict else ''}"] = h.hexdigest()
        r = mjfast.score_batch(sb, workers=1, strict=strict, rules=name)
        h = hashlib.sha256(np.ascontiguousarray(r.totals).tobytes() + np.ascontiguousarray(r.fan_counts).tobytes())
        for i in range(len(r)):
            h.update(repr((r.error_message(i), sorted(r.ignored_flags(i).items()))).encode())
        res[f"batch_{name}{'_strict' if strict else ''}"] = h.hexdigest()
# strict batches of the compiled-engine rule sets, with every row's error and ignored flags
for name in sorted(done):
    r = mjfast.score_batch(sb, workers=1, strict=True, rules=name)
    h = hashlib.sha256(np.ascontiguousarray(r.totals).tobytes() + np.ascontiguousarray(r.fan_counts).tobytes())
    for i in range(len(r)):
        h.update(repr((r.error_message(i), sorted(r.ignored_flags(i).items()))).encode())
    res[f"batch_{name}_strict_rows"] = h.hexdigest()
# the flags the rules drop, under every rule set: score() (strict or not) and score_batch
flag_recs = []
for i, rec in enumerate(recs[: n // 50]):
    rec = dict(rec)
    rec["kong"] = i % 3 == 0
    rec["fourth_tile"] = i % 5 < 2
    rec["last_tile"] = i % 7 == 0
    rec["self_drawn"] = (i // 2) % 2 == 0
    if i % 11 == 0:
        rec["heavenly_hand"] = True
    if i % 13 == 0:
        rec["earthly_hand"] = True
    if i % 17 == 0:
        rec["discard_after_kong"] = True
    flag_recs.append(rec)
for name in R.available():
    h = hashlib.sha256()
    for strict in (False, True):
        for rec in flag_recs:
            kw = {k: v for k, v in rec.items() if k not in ("hand", "id")}
            try:
                s = mjfast.score(rec["hand"], rules=name, strict=strict, **kw)
                h.update(repr((s.total, [(f.name, f.count) for f in s.fans], sorted(s.ignored_flags.items())))
                         .encode())
            except Exception as e:
                h.update(repr((type(e).__name__, str(e))).encode())
    for strict in (False, True):
        try:
            fb = mjfast.HandBatch.from_records(flag_recs, rules=name)
            r = mjfast.score_batch(fb, workers=1, rules=name, strict=strict)
            h.update(_digest(r).encode())
            h.update(repr([(r.error_message(i), sorted(r.ignored_flags(i).items())) for i in range(len(r))]).encode())
        except Exception as e:
            h.update(repr((type(e).__name__, str(e))).encode())
    res["flags_" + name] = h.hexdigest()
print(json.dumps(res, indent=1))
