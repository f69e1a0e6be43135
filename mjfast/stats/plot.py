"""Figures of fan statistics (matplotlib: ``pip install '.[plot]'``).

Each ``*_figure`` function takes a :class:`FanStats` and returns a matplotlib
Figure; the other functions write that figure to a file, whose format
follows the suffix (``.png``, ``.svg`` or ``.pdf``).

    fan_bars(acc, "fans.png")              # share of wins per fan: dots, 95 % Wilson intervals, points as colour
    totals_histogram(acc, "totals.svg")    # distribution of totals (linear, %), with the 8-point minimum
    cooccurrence_heatmap(acc, "cooc.png")  # P(column fan | row fan) in % for the most frequent fans
    plot_all(acc, "fans.png")              # the three: fans.png, fans-totals.png, fans-cooccurrence.png
    fan_figure(acc), totals_figure(acc), cooccurrence_figure(acc)   # the Figures, for a notebook

Every axis is in percent.  A share is drawn as a dot (with its interval as a
line when the statistics are sampled), never as a bar on a log axis, whose
length would depend on where the axis starts; the fan axis is linear unless
the shares span more than a factor of 100 (an exact enumeration, a large
sample with rare fans), where it is logarithmic — dots read the same on it.
The totals are bars on a linear axis, so a total seen once is a visible bar
(a few points wide when the wins are too few to fill one bar a point).
"""
from __future__ import annotations

import os
from typing import Optional

import numpy as np

from .._extras import require
from ..rules.mcr import MCR
from .accumulate import FanStats, wilson_interval

__all__ = ["fan_bars", "totals_histogram", "cooccurrence_heatmap", "plot_all", "fan_figure", "totals_figure",
           "cooccurrence_figure", "SUFFIXES", "SCALES"]

SUFFIXES = (".png", ".svg", ".pdf")
SCALES = ("auto", "linear", "log")

# the fan axis turns logarithmic when the largest share shown is more than
# this many times the smallest: below, a linear axis shows every dot apart
_LOG_SPAN = 100.0

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


def _pct_formatter(v, _pos=None) -> str:
    # tick labels of an axis whose values are already in percent
    if v == 0:
        return "0 %"
    if v >= 1:
        return f"{v:.0f} %" if v == round(v) else f"{v:g} %"
    if v >= 1e-3:
        return f"{v:.2g} %"
    mantissa, exponent = f"{v:.0e}".split("e")
    return f"{mantissa}e{int(exponent)} %"          # 1e-6 %, not 1e-06 %


def _choose_scale(scale: str, values: np.ndarray) -> str:
    if scale not in SCALES:
        raise ValueError(f"scale must be one of {', '.join(SCALES)}, got {scale!r}")
    if scale != "auto":
        return scale
    v = values[values > 0]
    return "log" if len(v) and v.max() > _LOG_SPAN * v.min() else "linear"


def fan_figure(stats: FanStats, *, title: Optional[str] = None, lang: str = "en", min_share: float = 0.0,
               intervals: Optional[bool] = None, xlabel: Optional[str] = None, scale: str = "auto"):
    """The share of wins with each fan seen, in %: one dot per fan, most
    frequent on top, coloured by the fan's points; its 95 % Wilson interval
    as a line through it (``intervals``; default: when the statistics are
    unweighted — pass False for exact counts such as the enumeration's, where
    a sampling interval means nothing).  ``scale``: "linear", "log" or
    "auto" (log when the shares span more than a factor of 100).  Returns the
    matplotlib Figure."""
    plt = _pyplot()
    _font(plt, lang)
    from matplotlib.colors import LogNorm
    from matplotlib.ticker import FuncFormatter
    cols = stats.columns()
    idx = stats.top_fans(len(MCR))
    idx = idx[cols["share"][idx] > min_share]
    if len(idx) == 0:
        raise ValueError("no fan to plot (no wins)")
    if intervals is None:
        intervals = not stats.weighted
    share = 100.0 * cols["share"][idx]
    points = cols["points"][idx]
    low = 100.0 * cols["share_low"][idx]
    high = 100.0 * cols["share_high"][idx]
    if intervals and not np.isfinite(low).all():
        raise ValueError("intervals=True: weighted statistics have no sampling intervals")
    scale = _choose_scale(scale, share)
    norm = LogNorm(vmin=1, vmax=88)
    cmap = plt.get_cmap("viridis")
    fig, ax = plt.subplots(figsize=(7.5, 0.19 * len(idx) + 1.5))
    y = np.arange(len(idx))
    ax.grid(axis="y", alpha=0.2, lw=0.6)
    if intervals:
        ax.hlines(y, low, high, color="0.35", lw=1.0, zorder=2, gid="wilson-interval",
                  label="95 % Wilson interval")
    ax.scatter(share, y, c=points, cmap=cmap, norm=norm, s=22, edgecolors="0.2", linewidths=0.4, zorder=3,
               gid="share")
    ax.set_yticks(y)
    ax.set_yticklabels([f"{_label(j, lang)} ({MCR.points[j]})" for j in idx], fontsize=6.5)
    ax.set_ylim(len(idx) - 0.5, -0.5)            # most frequent on top
    ax.set_xscale(scale)
    lo_edge = low if intervals else share
    hi_edge = high if intervals else share
    if scale == "linear":
        ax.set_xlim(0, min(100.0, 1.05 * float(np.max(hi_edge))) or 1.0)
    else:
        ax.set_xlim(float(np.min(lo_edge[lo_edge > 0], initial=np.min(share))) / 2,
                    min(100.0, float(np.max(hi_edge)) * 1.6))
    ax.xaxis.set_major_formatter(FuncFormatter(_pct_formatter))
    ax.grid(axis="x", which="major", alpha=0.25)
    ax.set_xlabel(_in_percent(xlabel or ("share of wins with the fan"
                                         + (", with its 95 % Wilson interval" if intervals else ""))))
    sm = plt.cm.ScalarMappable(norm=norm, cmap=cmap)
    cb = fig.colorbar(sm, ax=ax, pad=0.01, fraction=0.04)
    cb.set_label("points")
    cb.set_ticks([1, 2, 4, 8, 16, 24, 32, 48, 64, 88])
    cb.set_ticklabels(["1", "2", "4", "8", "16", "24", "32", "48", "64", "88"])
    cb.minorticks_off()
    seen = f"{len(idx)} of {len(MCR)} fans seen"
    ax.set_title(title or f"Fan frequencies over {_wins(stats)} ({seen})", fontsize=10)
    return fig


def _in_percent(label: str) -> str:
    return label if "%" in label else label + " (%)"


def _wins(stats: FanStats) -> str:
    return f"{stats.wins:,} wins"


def fan_bars(stats: FanStats, path, *, title: Optional[str] = None, lang: str = "en", min_share: float = 0.0,
             intervals: Optional[bool] = None, xlabel: Optional[str] = None, scale: str = "auto"):
    """Write :func:`fan_figure` to ``path`` (the format follows the suffix);
    returns the path."""
    path = _check_path(path)
    fig = fan_figure(stats, title=title, lang=lang, min_share=min_share, intervals=intervals, xlabel=xlabel,
                     scale=scale)
    _save(fig, path, _pyplot())
    return path


def _bin_width(wins: float, n_totals: int) -> int:
    # one point a bar when there are wins enough to fill them; else bars of
    # 2, 4 or 8 points (each divides 8, so the minimum stays on a bar's edge),
    # so that a few dozen wins do not scatter into single-win spikes
    for w in (1, 2, 4):
        if wins >= _WINS_PER_BAR * -(-n_totals // w):
            return w
    return 8


_WINS_PER_BAR = 3


def totals_figure(stats: FanStats, *, title: Optional[str] = None, max_total: Optional[int] = None,
                  intervals: bool = False, width: Optional[int] = None):
    """The distribution of totals: the share of wins in each bar, in %, on a
    linear axis (a total seen once is a bar of 1/wins), with the 8-point
    minimum marked.  Bars are ``width`` points wide (1, 2, 4 or 8; default:
    1 when there are at least 3 wins a bar, else the narrowest width that
    has).  ``intervals=True`` adds each bar's 95 % Wilson interval (sampled
    statistics only).  Totals above ``max_total`` (default: the 99.9th
    percentile, at least 16) are not drawn; the axis label says what share
    of the wins they are.  Returns the matplotlib Figure."""
    plt = _pyplot()
    from matplotlib.ticker import FuncFormatter
    h = stats.histogram().astype(np.float64)
    if h.sum() == 0:
        raise ValueError("no totals to plot (no wins)")
    if intervals and stats.weighted:
        raise ValueError("intervals=True: weighted statistics have no sampling intervals")
    if max_total is None:
        # (an int: the histogram holds wins, checked above)
        max_total = max(16, int(stats.totals_quantile(0.999)) + 1)
    wins = float(stats.wins)
    if width is None:
        width = _bin_width(wins, max_total + 1)
    if width not in (1, 2, 4, 8):
        raise ValueError(f"width must be 1, 2, 4 or 8 points, got {width!r}")
    n_bars = -(-(max_total + 1) // width)
    counts = np.zeros(n_bars * width)
    counts[: min(len(h), len(counts))] = h[: len(counts)]
    counts = counts.reshape(n_bars, width).sum(axis=1)
    beyond = float(h[n_bars * width:].sum()) / wins
    share = 100.0 * counts / wins
    left = np.arange(n_bars) * width
    fig, ax = plt.subplots(figsize=(7.5, 3.6))
    ax.bar(left - 0.5, share, width=width * 0.92, align="edge", color=np.where(left >= 8, "tab:blue", "tab:gray"),
           linewidth=0, gid="share")
    if intervals:
        lo, hi = wilson_interval(counts, wins)
        seen = counts > 0
        centre = left[seen] - 0.5 + width * 0.46
        ax.vlines(centre, 100 * lo[seen], 100 * hi[seen], color="0.25", lw=0.6, gid="wilson-interval",
                  label="95 % Wilson interval")
    ax.axvline(7.5, color="tab:red", lw=1.2, ls="--", label="8-point minimum")
    ax.set_xlim(-0.5, n_bars * width - 0.5)
    ax.set_ylim(0, None)
    ax.yaxis.set_major_formatter(FuncFormatter(_pct_formatter))
    ax.set_xlabel("total points" + (f"  ({100 * beyond:.2g} % of wins above {n_bars * width - 1}, not shown)"
                                    if beyond > 0 else ""))
    ax.set_ylabel("share of wins (%)" + (f", per {width} points" if width > 1 else ""))
    s = stats.summary()["totals"]
    ax.legend(title=f"mean {s['mean']:.1f}, median {s['median']}", fontsize=8, title_fontsize=8)
    ax.grid(axis="y", which="major", alpha=0.25)
    ax.set_title(title or f"Totals of {_wins(stats)}", fontsize=10)
    return fig


def totals_histogram(stats: FanStats, path, *, title: Optional[str] = None, max_total: Optional[int] = None,
                     intervals: bool = False, width: Optional[int] = None):
    """Write :func:`totals_figure` to ``path``; returns the path."""
    path = _check_path(path)
    fig = totals_figure(stats, title=title, max_total=max_total, intervals=intervals, width=width)
    _save(fig, path, _pyplot())
    return path


def cooccurrence_figure(stats: FanStats, *, n: int = 20, title: Optional[str] = None, lang: str = "en"):
    """P(column fan | row fan), in %, for the ``n`` most frequent fans: cells
    coloured and annotated in percent (the diagonal, always 100 %, is left
    blank); each row's label gives the wins it is a share of.  Returns the
    matplotlib Figure."""
    plt = _pyplot()
    _font(plt, lang)
    from matplotlib.ticker import FuncFormatter
    keys, m = stats.cooccurrence(n, conditional=True)
    if not keys:
        raise ValueError("no fan to plot (no wins)")
    idx = [MCR.index(k) for k in keys]
    k = len(keys)
    pct = 100.0 * m.astype(np.float64)
    fig, ax = plt.subplots(figsize=(0.42 * k + 3.2, 0.42 * k + 2.2))
    # the diagonal (always 100 %) is left blank so that the colours span the
    # off-diagonal values
    shown = pct.copy()
    np.fill_diagonal(shown, np.nan)
    vmax = float(np.nanmax(shown)) if k > 1 and np.isfinite(shown).any() else 100.0
    vmax = max(vmax, 1e-9)
    im = ax.imshow(shown, cmap="magma_r", vmin=0, vmax=vmax, gid="cooccurrence")
    labels = [_label(j, lang) for j in idx]
    ax.set_xticks(range(k))
    ax.set_xticklabels(labels, rotation=60, ha="right", fontsize=7)
    ax.set_yticks(range(k))
    row_wins = stats.fan_wins[idx]
    ax.set_yticklabels([f"{lab} ({w:,.0f})" if not stats.weighted else lab for lab, w in zip(labels, row_wins)],
                       fontsize=7)
    for i in range(k):
        for j in range(k):
            v = pct[i, j]
            if i != j and v >= 0.5:
                ax.text(j, i, f"{v:.0f}", ha="center", va="center", fontsize=5.5,
                        color="white" if v > 0.6 * vmax else "black")
    cb = fig.colorbar(im, ax=ax, fraction=0.04, pad=0.02, format=FuncFormatter(_pct_formatter))
    cb.set_label("share of the row fan's wins that also have the column fan (%)")
    ax.set_ylabel("row fan" + (" (its wins)" if not stats.weighted else ""))
    ax.set_title(title or f"Co-occurrence of the {k} most frequent fans (%)", fontsize=10)
    return fig


def cooccurrence_heatmap(stats: FanStats, path, *, n: int = 20, title: Optional[str] = None, lang: str = "en"):
    """Write :func:`cooccurrence_figure` to ``path``; returns the path."""
    path = _check_path(path)
    fig = cooccurrence_figure(stats, n=n, title=title, lang=lang)
    _save(fig, path, _pyplot())
    return path


def plot_all(stats: FanStats, path, *, title: Optional[str] = None, lang: str = "en", n: int = 20,
             intervals: Optional[bool] = None, xlabel: Optional[str] = None, scale: str = "auto") -> list:
    """The three figures: ``path`` (fan frequencies), ``<stem>-totals<suffix>``
    and ``<stem>-cooccurrence<suffix>``.  Returns the paths written."""
    path = _check_path(path)
    stem, suffix = os.path.splitext(path)
    prefix = f"{title}: " if title else ""
    return [
        fan_bars(stats, path, lang=lang, title=prefix + f"fan frequencies over {_wins(stats)}" if title else None,
                 intervals=intervals, xlabel=xlabel, scale=scale),
        totals_histogram(stats, f"{stem}-totals{suffix}",
                         title=prefix + f"totals of {_wins(stats)}" if title else None),
        cooccurrence_heatmap(stats, f"{stem}-cooccurrence{suffix}", n=n, lang=lang,
                             title=prefix + "co-occurrence (%)" if title else None),
    ]
