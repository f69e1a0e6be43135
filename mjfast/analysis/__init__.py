"""Questions about a hand that are not its score: is it a win, what does it
wait on, how far is it from ready, how does it decompose, what to discard,
which fans it can still reach, and the same with wildcards.

``hands`` (is_win, decompose, waits, shanten, useful_tiles and their batch
forms), ``inputs`` (what every entry point accepts, turned into the count
arrays the compiled core reads), ``discards`` (best_discards, winning_tiles),
``targets`` (fan_targets, fan_shanten) and ``wild`` (the wildcard arguments).
The public names are re-exported by :mod:`mjfast`; this package imports none
of its modules itself, so that a module of another package can import one of
them without loading the rest (docs/architecture.md, "Layers").
"""
