"""Figures of fan statistics (matplotlib: ``pip install 'mjfast[plot]'``).

Each function takes a :class:`FanStats` and writes one figure; the format
follows the file suffix (``.png``, ``.svg`` or ``.pdf``).

    fan_bars(acc, "fans.png")              # share of wins per fan, log scale, points as colour
    totals_histogram(acc, "totals.svg")    # distribution of totals, with the 8-point minimum
    cooccurrence_heatmap(acc, "cooc.png")  # P(column fan | row fan) for the most frequent fans
    plot_all(acc, "fans.png")              # the three: fans.png, fans-totals.png, fans-cooccurrence.png
"""
from __future__ import annotations

import os
from typing import Optional

import numpy as np

from .._extras import require
from ..rules.mcr import MCR
from .accumulate import FanStats

__all__ = ["fan_bars", "totals_histogram", "cooccurrence_heatmap", "plot_all", "SUFFIXES"]

SUFFIXES = (".png", ".svg", ".pdf")


def _pyplot():
    require("plot", "plots")
    import matplotlib
    matplotlib.use("Agg", force=False)   # files only; never opens a window
    import matplotlib.pyplot as plt
    return plt


def _check_path(path) -> str:
    path = os.fspath(path)
    suffix = os.path.splitext(path)[1].lower()
    if suffix not in SUFFIXES:
        raise ValueError(f"{path}: the figure format follows the suffix, one of {', '.join(SUFFIXES)}")
    return path


def _save(fig, path, plt):
    fig.savefig(path, dpi=150, bbox_inches="tight")
    plt.close(fig)


def _label(j: int, lang: str) -> str:
    f = MCR.fans[j]
    return f"{f.zh} {f.en}" if lang == "both" else (f.zh if lang == "zh" else f.en)


def _font(plt, lang):
    if lang != "en":
        # CJK names need a font that has them; fall back silently to the default
        plt.rcParams["font.sans-serif"] = ["Noto Sans CJK SC", "Source Han Sans SC", "WenQuanYi Zen Hei",
                                           "SimHei", "DejaVu Sans"]


def fan_bars(stats: FanStats, path, *, title: Optional[str] = None, lang: str = "en", min_share: float = 0.0,
             intervals: Optional[bool] = None, xlabel: Optional[str] = None):
    """Horizontal bars: the share of wins with each fan seen (log scale), most
    frequent on top, coloured by the fan's points; 95 % intervals as whiskers
    (``intervals``; default: when the statistics are unweighted — pass False
    for exact counts such as the enumeration's, where a sampling interval means
    nothing)."""
    path = _check_path(path)
    plt = _pyplot()
    _font(plt, lang)
    from matplotlib.colors import LogNorm
    cols = stats.columns()
    idx = stats.top_fans(len(MCR))
    idx = idx[cols["share"][idx] > min_share]
    if len(idx) == 0:
        raise ValueError("no fan to plot (no wins)")
    share = cols["share"][idx]
    points = cols["points"][idx]
    norm = LogNorm(vmin=1, vmax=88)
    cmap = plt.get_cmap("viridis")
    fig, ax = plt.subplots(figsize=(7.5, 0.19 * len(idx) + 1.3))
    y = np.arange(len(idx))
    xerr = None
    if intervals is None:
        intervals = not stats.weighted
    if intervals:
        xerr = np.vstack([share - cols["share_low"][idx], cols["share_high"][idx] - share])
    ax.barh(y, share, color=cmap(norm(points)), xerr=xerr, error_kw={"elinewidth": 0.6, "ecolor": "0.3"})
    ax.set_yticks(y)
    ax.set_yticklabels([f"{_label(j, lang)} ({MCR.points[j]})" for j in idx], fontsize=6.5)
    ax.invert_yaxis()
    ax.set_xscale("log")
    ax.set_xlabel(xlabel or ("share of wins with the fan" + (", 95 % Wilson interval" if intervals else "")))
    ax.grid(axis="x", which="both", alpha=0.25)
    sm = plt.cm.ScalarMappable(norm=norm, cmap=cmap)
    cb = fig.colorbar(sm, ax=ax, pad=0.01, fraction=0.04)
    cb.set_label("points")
    cb.set_ticks([1, 2, 4, 8, 16, 24, 32, 48, 64, 88])
    cb.set_ticklabels(["1", "2", "4", "8", "16", "24", "32", "48", "64", "88"])
    ax.set_title(title or f"Fan frequencies over {stats.wins:,} wins", fontsize=10)
    _save(fig, path, plt)
    return path


def totals_histogram(stats: FanStats, path, *, title: Optional[str] = None, max_total: Optional[int] = None):
    """The distribution of totals (share of wins per total, log scale), with
    the 8-point minimum marked."""
    path = _check_path(path)
    plt = _pyplot()
    h = stats.histogram().astype(np.float64)
    if h.sum() == 0:
        raise ValueError("no totals to plot (no wins)")
    if max_total is None:
        max_total = max(16, stats.totals_quantile(0.999) + 1)
    h = h[: max_total + 1] / stats.wins
    fig, ax = plt.subplots(figsize=(7.5, 3.6))
    x = np.arange(len(h))
    ax.bar(x, h, width=1.0, color=np.where(x >= 8, "tab:blue", "tab:gray"), linewidth=0)
    ax.axvline(7.5, color="tab:red", lw=1.2, ls="--", label="8-point minimum")
    ax.set_yscale("log")
    ax.set_xlim(-0.5, len(h) - 0.5)
    ax.set_xlabel("total points")
    ax.set_ylabel("share of wins")
    s = stats.summary()["totals"]
    ax.legend(title=f"mean {s['mean']:.1f}, median {s['median']}", fontsize=8, title_fontsize=8)
    ax.grid(axis="y", which="major", alpha=0.25)
    ax.set_title(title or f"Totals of {stats.wins:,} wins", fontsize=10)
    _save(fig, path, plt)
    return path


def cooccurrence_heatmap(stats: FanStats, path, *, n: int = 20, title: Optional[str] = None, lang: str = "en"):
    """P(column fan | row fan) for the ``n`` most frequent fans, cells
    annotated in percent (the diagonal, always 100 %, is left blank)."""
    path = _check_path(path)
    plt = _pyplot()
    _font(plt, lang)
    keys, m = stats.cooccurrence(n, conditional=True)
    if not keys:
        raise ValueError("no fan to plot (no wins)")
    idx = [MCR.index(k) for k in keys]
    k = len(keys)
    fig, ax = plt.subplots(figsize=(0.42 * k + 2.8, 0.42 * k + 2.2))
    # the diagonal (always 100 %) is left blank so that the colours span the
    # off-diagonal values
    shown = m.astype(np.float64).copy()
    np.fill_diagonal(shown, np.nan)
    vmax = float(np.nanmax(shown)) if k > 1 and np.isfinite(shown).any() else 1.0
    im = ax.imshow(shown, cmap="magma_r", vmin=0, vmax=max(vmax, 1e-9))
    labels = [_label(j, lang) for j in idx]
    ax.set_xticks(range(k))
    ax.set_xticklabels(labels, rotation=60, ha="right", fontsize=7)
    ax.set_yticks(range(k))
    ax.set_yticklabels(labels, fontsize=7)
    for i in range(k):
        for j in range(k):
            v = m[i, j]
            if i != j and v >= 0.005:
                ax.text(j, i, f"{100 * v:.0f}", ha="center", va="center", fontsize=5.5,
                        color="white" if v > 0.6 * vmax else "black")
    cb = fig.colorbar(im, ax=ax, fraction=0.04, pad=0.02)
    cb.set_label("share of the row fan's wins that also have the column fan")
    ax.set_title(title or f"Co-occurrence of the {k} most frequent fans (%)", fontsize=10)
    _save(fig, path, plt)
    return path


def plot_all(stats: FanStats, path, *, title: Optional[str] = None, lang: str = "en", n: int = 20,
             intervals: Optional[bool] = None, xlabel: Optional[str] = None) -> list:
    """The three figures: ``path`` (fan bars), ``<stem>-totals<suffix>`` and
    ``<stem>-cooccurrence<suffix>``.  Returns the paths written."""
    path = _check_path(path)
    stem, suffix = os.path.splitext(path)
    prefix = f"{title}: " if title else ""
    return [
        fan_bars(stats, path, lang=lang, title=prefix + f"fan frequencies over {stats.wins:,} wins" if title else None,
                 intervals=intervals, xlabel=xlabel),
        totals_histogram(stats, f"{stem}-totals{suffix}", title=prefix + f"totals of {stats.wins:,} wins" if title else None),
        cooccurrence_heatmap(stats, f"{stem}-cooccurrence{suffix}", n=n, lang=lang,
                             title=prefix + "co-occurrence (%)" if title else None),
    ]
