"""Scoring: one hand (``score``: :func:`mjfast.score`, ``Score``), a batch
of hands (``batch``: :class:`HandBatch` and :func:`score_batch`;
``batch_result``: :class:`BatchResult`, its error codes and the compiled
MCR pass; ``batch_rules``: the rows of the other rule sets) and the hand
records with their win context (``records``: the one validator of a record
and of the context keywords).

The public names are re-exported by :mod:`mjfast`; this package imports none
of its modules itself (docs/architecture.md, "Layers").
"""
