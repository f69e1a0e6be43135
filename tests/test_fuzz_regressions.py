"""Replay the fuzzers' saved inputs through their invariant checks.

Every file in fuzz/regressions/<harness>/ (an input that once failed) and in
fuzz/corpus/<harness>/ (the inputs the fuzzer kept for new coverage) runs
through the harness's ``check``: the same invariants as a fuzzing run, no
atheris needed.  See fuzz/README.md.
"""
from __future__ import annotations

import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FUZZ = os.path.join(ROOT, "fuzz")
sys.path.insert(0, FUZZ)

HARNESSES = ("notation", "jsonl", "batch", "game", "botstate", "logs")


def _inputs(kind, name):
    d = os.path.join(FUZZ, kind, name)
    if not os.path.isdir(d):
        return []
    return sorted(os.path.join(d, f) for f in os.listdir(d) if not f.startswith("."))


@pytest.mark.parametrize("name", HARNESSES)
def test_corpus_replays_clean(name):
    files = _inputs("corpus", name)
    assert len(files) >= 50, f"fuzz/corpus/{name} is missing or nearly empty"
    check = __import__(f"fuzz_{name}").check
    for path in files:
        with open(path, "rb") as f:
            data = f.read()
        try:
            check(data)
        except Exception as exc:  # name the input, for replaying by hand
            raise AssertionError(f"{os.path.relpath(path, ROOT)}: {exc!r}") from exc


@pytest.mark.parametrize("name", HARNESSES)
def test_saved_failures_replay_clean(name):
    # each file is an input that once failed (fuzz/regressions/<harness>/)
    check = __import__(f"fuzz_{name}").check
    for path in _inputs("regressions", name):
        with open(path, "rb") as f:
            data = f.read()
        try:
            check(data)
        except Exception as exc:
            raise AssertionError(f"{os.path.relpath(path, ROOT)}: {exc!r}") from exc


def test_harness_checks_can_fail(monkeypatch):
    # the checks are not vacuous: with the printer made wrong, the notation
    # harness must notice on a plain winning hand
    import fuzz_notation
    import mjfast.hand as hand

    real = hand.format_hand
    # a printer that writes a 2 for the first 1: still valid notation, a different hand
    monkeypatch.setattr(hand, "format_hand",
                        lambda h, style="compact": real(h, style).replace("1", "2", 1))
    with pytest.raises(AssertionError):
        fuzz_notation.check_string("123m456m789m123p5p5p")


def test_game_harness_checks_can_fail(monkeypatch):
    # an engine that hides its first legal action: the side-by-side check must notice
    import fuzz_game
    import mjfast.game.fast as fast

    class Wrong(fast.FastGame):
        def legal(self, seat):
            return super().legal(seat)[1:]

    monkeypatch.setattr(fast, "FastGame", Wrong)
    with pytest.raises(AssertionError):
        fuzz_game.check(bytes([0]) + bytes(range(1, 200)))


def test_botstate_harness_checks_can_fail(monkeypatch):
    # a view that fails with another exception than ProtocolError on a draw: the harness must notice
    import fuzz_botstate
    from mjfast.botzone import state

    def broken(self, p, t, request):
        raise IndexError("broken")

    monkeypatch.setattr(state.BotState, "_draw", broken)
    caught = 0
    for path in _inputs("corpus", "botstate")[:40]:
        with open(path, "rb") as f:
            data = f.read()
        try:
            fuzz_botstate.check(data)
        except (IndexError, AssertionError):
            caught += 1
    assert caught > 0
