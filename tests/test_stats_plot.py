"""The figures of mjfast.stats.plot read right on small and large samples:
shares are dots on a linear axis (log only over a wide span) with their
Wilson intervals, the totals are bars on a linear axis, every axis is in %.
Asserted on the Figures' data, not on pixels."""
import numpy as np
import pytest

import mjfast
import mjfast.testing as mt
from mjfast.stats import FanStats
from mjfast.stats.accumulate import wilson_interval
from mjfast.rules.mcr import MCR

pytest.importorskip("matplotlib")
from mjfast.stats import plot  # noqa: E402  (needs matplotlib)


def _stats(n, seed=3):
    acc = FanStats()
    acc.update(mjfast.score_batch(mjfast.HandBatch.from_records(mt.winning_records(n, seed=seed))))
    return acc


@pytest.fixture(scope="module")
def small():
    return _stats(36)


@pytest.fixture(scope="module")
def large():
    return _stats(20_000, seed=4)


def _by_gid(ax, gid):
    return [c for c in list(ax.collections) + list(ax.patches) if c.get_gid() == gid]


def _tick_texts(ax, axis):
    ax.figure.canvas.draw()
    ticks = ax.get_xticklabels() if axis == "x" else ax.get_yticklabels()
    return [t.get_text() for t in ticks if t.get_text()]


def test_fan_figure_small_sample_dots_on_a_linear_percent_axis_with_wilson_intervals(small):
    fig = plot.fan_figure(small)
    ax = fig.axes[0]
    assert ax.get_xscale() == "linear"
    assert not ax.patches, "no bars"
    (dots,) = _by_gid(ax, "share")
    (lines,) = _by_gid(ax, "wilson-interval")
    cols = small.columns()
    idx = small.top_fans(len(MCR))
    x = dots.get_offsets()[:, 0]
    assert np.allclose(x, 100 * cols["share"][idx])
    # every interval is the fan's Wilson interval, in percent, around its dot
    lo, hi = wilson_interval(small.fan_wins[idx], small.wins)
    segs = np.array([s[:, 0] for s in lines.get_segments()])
    assert np.allclose(segs[:, 0], 100 * lo) and np.allclose(segs[:, 1], 100 * hi)
    assert (segs[:, 0] <= x).all() and (x <= segs[:, 1]).all()
    assert ax.get_xlim()[0] == 0
    assert all(t.endswith("%") for t in _tick_texts(ax, "x"))
    assert "%" in ax.get_xlabel() and "Wilson" in ax.get_xlabel()
    assert "36 wins" in ax.get_title()


def test_fan_figure_goes_log_only_over_a_wide_span_and_keeps_dots(large):
    share = large.columns()["share"]
    seen = share[share > 0]
    assert seen.max() > 100 * seen.min()          # the sample has rare fans
    fig = plot.fan_figure(large)
    ax = fig.axes[0]
    assert ax.get_xscale() == "log" and not ax.patches
    (lines,) = _by_gid(ax, "wilson-interval")
    lo = min(s[0, 0] for s in lines.get_segments())
    assert 0 < ax.get_xlim()[0] <= lo            # every interval starts inside the axis
    assert all(t.endswith("%") for t in _tick_texts(ax, "x"))
    assert plot.fan_figure(large, scale="linear").axes[0].get_xscale() == "linear"
    with pytest.raises(ValueError, match="scale"):
        plot.fan_figure(large, scale="sqrt")


def test_exact_statistics_have_no_intervals():
    acc = FanStats(weighted=True)
    res = mjfast.score_batch(mjfast.HandBatch.from_records(mt.winning_records(300, seed=1)))
    acc.update(res, weights=np.full(300, 7, dtype=np.int64))
    ax = plot.fan_figure(acc).axes[0]
    assert _by_gid(ax, "share") and not _by_gid(ax, "wilson-interval")
    with pytest.raises(ValueError, match="interval"):
        plot.fan_figure(acc, intervals=True)


def test_totals_figure_linear_percent_bars_where_a_single_win_shows(small, large):
    for acc in (small, large):
        fig = plot.totals_figure(acc)
        ax = fig.axes[0]
        assert ax.get_yscale() == "linear" and ax.get_ylim()[0] == 0
        bars = [p for p in ax.patches if p.get_gid() == "share"]
        heights = np.array([p.get_height() for p in bars])
        widths = {round(p.get_width() / 0.92) for p in bars}
        (w,) = widths
        # bar k holds the wins with totals k*w .. k*w + w - 1, as a share in percent
        h = acc.histogram()
        want = np.array([h[k * w:(k + 1) * w].sum() for k in range(len(bars))]) * 100 / acc.wins
        assert np.allclose(heights, want)
        assert abs(heights.sum() - 100) < 1.0 or "not shown" in ax.get_xlabel()
        assert all(t.endswith("%") for t in _tick_texts(ax, "y")) and "%" in ax.get_ylabel()
        # the 8-point minimum falls on a bar edge
        assert 8 % w == 0
    # 36 wins over ~150 totals: wider bars, each non-empty one at least 1/36
    ax = plot.totals_figure(small).axes[0]
    assert "per 8 points" in ax.get_ylabel()
    hs = [p.get_height() for p in ax.patches if p.get_gid() == "share" and p.get_height() > 0]
    assert min(hs) >= 100 / 36 - 1e-9
    assert "per" not in plot.totals_figure(large).axes[0].get_ylabel()


def test_totals_intervals_on_request(small):
    ax = plot.totals_figure(small, intervals=True, width=4).axes[0]
    (lines,) = _by_gid(ax, "wilson-interval")
    h = small.histogram()
    counts = np.array([h[k * 4:(k + 1) * 4].sum() for k in range(len(h) // 4 + 1)])
    counts = counts[counts > 0][:len(lines.get_segments())]
    lo, hi = wilson_interval(counts, small.wins)
    segs = np.array([s[:, 1] for s in lines.get_segments()])
    assert len(segs) == len(counts) and np.allclose(segs[:, 0], 100 * lo) and np.allclose(segs[:, 1], 100 * hi)
    with pytest.raises(ValueError, match="width"):
        plot.totals_figure(small, width=3)


def test_cooccurrence_in_percent_with_the_rows_wins(small):
    fig = plot.cooccurrence_figure(small, n=10)
    ax, cax = fig.axes
    (im,) = [i for i in ax.images if i.get_gid() == "cooccurrence"]
    keys, m = small.cooccurrence(10, conditional=True)
    data = np.asarray(im.get_array(), dtype=float)
    off = ~np.eye(len(keys), dtype=bool)
    assert np.allclose(data[off], 100 * m[off])
    assert np.isnan(np.asarray(im.get_array().filled(np.nan))[~off]).all()
    assert im.get_clim()[1] > 1                   # percent, not a fraction
    assert "%" in cax.get_ylabel() and "%" in ax.get_title()
    assert all(t.endswith("%") for t in _tick_texts(cax, "y"))
    wins = small.fan_wins[[MCR.index(k) for k in keys]]
    assert [t.get_text() for t in ax.get_yticklabels()][0].endswith(f"({wins[0]:,})")


def test_plot_all_writes_the_three_files(small, tmp_path):
    paths = plot.plot_all(small, tmp_path / "f.png")
    assert [p.split("/")[-1] for p in paths] == ["f.png", "f-totals.png", "f-cooccurrence.png"]
