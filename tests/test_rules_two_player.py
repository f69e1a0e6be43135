"""Two-player mahjong (rule set ``two_player``): one hand per fan, worked out
by hand from the rule set's table (docs/rules.md), the exclusions, the
garbled passages as ruled, the options, and the settlement arithmetic.

Every expected total below is reasoned in the comment next to it; the test
checks both the total and the exact fan list (key -> count).
"""
from __future__ import annotations

import re

import numpy as np
import pytest

import mjfast
from mjfast import rules as R
from mjfast import score
from mjfast.rules.two_player import flower_payout, kong_payout

TP = R.get("two_player")


def fans(s):
    return {f.key: f.count for f in s.fans}


# (hand, context, expected fans, expected total); discard win unless self_drawn
CASES = {
    # EEE SSS WWW NN 11m + N on a discard.  NNN is completed by the discard, so
    # it counts as melded: three concealed pungs.  Big Four Winds removes All
    # Pungs, Big Three Winds, Little Four Winds and Pung of Terminals or Honors;
    # every tile is 1m or an honor: All Terminals and Honors; characters and
    # honors: Half Flush; no melds, discard: Concealed Hand; 放铳; pair 11m:
    # Terminal Pair.  Waits N and 1m: no wait fan.  88+32+16+8+4+2+1 = 151.
    "big_four_winds": ("EEESSSWWWNN11mN", {}, {
        "big_four_winds": 1, "all_terminals_and_honors": 1, "three_concealed_pungs": 1, "half_flush": 1,
        "win_off_a_discard": 1, "concealed_hand": 1, "terminal_pair": 1}, 151),
    # CCC FFF PPP 123m 5m + 5m self-drawn: Big Three Dragons (removes Two
    # Dragons Pungs; the three dragon pungs give no Pung of Terminals or
    # Honors), three concealed pungs 16, Half Flush 8, Fully Concealed Hand 4,
    # 2-5-8 Pair 1, Single Wait 1 (5m is the only tile: 1235 + 4/2/1 makes no
    # set and pair).  88+16+8+4+1+1 = 118.
    "big_three_dragons": ("CCCFFFPPP123m5m5m", {"self_drawn": True}, {
        "big_three_dragons": 1, "three_concealed_pungs": 1, "half_flush": 1, "fully_concealed_hand": 1,
        "pair_258": 1, "single_wait": 1}, 118),
    # 22..77 + 8m 8m on a discard: Seven Shifted Pairs removes Seven Pairs,
    # Full Flush, Concealed Hand, Single Wait, No Honors; 放铳 4.  The best
    # regular reading (234 234 567 567 88) is far lower.  88+4 = 92.
    "seven_shifted_pairs": ("2233445566778m8m", {}, {"seven_shifted_pairs": 1, "win_off_a_discard": 1}, 92),
    # 123 456 789m EEE 5m + 5m self-drawn, dealer's dealt hand: Heavenly Hand
    # 88, Pure Straight 16, Half Flush 8, Fully Concealed Hand 4, EEE: Pung of
    # Terminals or Honors 1, 55m: 2-5-8 Pair 1.  5m is the only winning tile
    # and sits in the middle of 456m: Closed Wait 1 (edge, then closed, then
    # single, as in MCR).  88+16+8+4+1+1+1 = 119.
    "heavenly_hand": ("123m456m789mEEE5m5m", {"self_drawn": True, "heavenly_hand": True}, {
        "heavenly_hand": 1, "pure_straight": 1, "half_flush": 1, "fully_concealed_hand": 1,
        "pung_of_terminals_or_honors": 1, "pair_258": 1, "closed_wait": 1}, 119),
    # 1112345678999m + 5m on a discard: Nine Gates 88 (removes Full Flush,
    # Concealed Hand, No Honors, and one Pung of Terminals or Honors); reading
    # 111 234 678 999 55: two concealed pungs 6, 放铳 4, 2-5-8 Pair 1, one
    # Pung of Terminals or Honors left (999).  Nine waits: no wait fan.
    # 88+6+4+1+1 = 100.
    "nine_gates": ("1112345678999m5m", {}, {
        "nine_gates": 1, "two_concealed_pungs": 1, "win_off_a_discard": 1, "pair_258": 1,
        "pung_of_terminals_or_honors": 1}, 100),
    # kongs 1111m (melded), EEEE (concealed), SSSS, 9999m (melded) + 55m:
    # Four Kongs 88 (removes the smaller kong fans, All Pungs, Single Wait);
    # Half Flush 8; four Pungs of Terminals or Honors (two winds are no wind
    # fan) 4; 放铳 4; 2-5-8 Pair 1.  One concealed pung only.  88+8+4+4+1 = 105.
    "four_kongs": ("[1111m1][EEEE][SSSS2][9999m3]5m5m", {}, {
        "four_kongs": 1, "half_flush": 1, "pung_of_terminals_or_honors": 4, "win_off_a_discard": 1,
        "pair_258": 1}, 105),
    # EEE SSS WWW NN 12m + 3m: Little Four Winds 64 (removes Big Three Winds
    # and Pung of Terminals or Honors), three concealed pungs 16, Half Flush 8,
    # 放铳 4, Concealed Hand 2, Edge Wait 1 (12m waiting on 3m, the only tile).
    # 64+16+8+4+2+1 = 95.
    "little_four_winds": ("EEESSSWWWNN12m3m", {}, {
        "little_four_winds": 1, "three_concealed_pungs": 1, "half_flush": 1, "win_off_a_discard": 1,
        "concealed_hand": 1, "edge_wait": 1}, 95),
    # CCC FFF PP 123m 79m + 8m: Little Three Dragons 64 (removes Two Dragons
    # Pungs; its two dragon pungs give no Pung of Terminals or Honors), two
    # concealed pungs 6, Half Flush 8, 放铳 4, Concealed Hand 2, Two Terminal
    # Chows (123m 789m) 1, Closed Wait 1.  64+6+8+4+2+1+1 = 86.
    "little_three_dragons": ("CCCFFFPP123m79m8m", {}, {
        "little_three_dragons": 1, "two_concealed_pungs": 1, "half_flush": 1, "win_off_a_discard": 1,
        "concealed_hand": 1, "two_terminal_chows": 1, "closed_wait": 1}, 86),
    # 111m 333m EEE FFF 9m + 9m self-drawn: Four Concealed Pungs 64 (removes
    # All Pungs, the smaller concealed-pung fans, Fully Concealed Hand), Half
    # Flush 8, Pung of Terminals or Honors x3 (111m, EEE, FFF: one dragon pung
    # is no dragon fan) 3, Terminal Pair 1, Single Wait 1.  64+8+3+1+1 = 77.
    "four_concealed_pungs": ("111m333mEEEFFF9m9m", {"self_drawn": True}, {
        "four_concealed_pungs": 1, "half_flush": 1, "pung_of_terminals_or_honors": 3, "terminal_pair": 1,
        "single_wait": 1}, 77),
    # 123 123 789 789m 5m + 5m: Pure Terminal Chows 64 (removes Seven Pairs,
    # Full Flush, Pure Double Chow, Two Terminal Chows, No Honors), Concealed
    # Hand 2, 放铳 4, 2-5-8 Pair 1, Single Wait 1.  The seven-pairs reading is
    # 24+24+4 = 52.  64+4+2+1+1 = 72.
    "pure_terminal_chows": ("123m123m789m789m5m5m", {}, {
        "pure_terminal_chows": 1, "concealed_hand": 1, "win_off_a_discard": 1, "pair_258": 1,
        "single_wait": 1}, 72),
    # the heavenly hand's tiles, won by the non-dealer by self-draw after the
    # dealer's first discard: 64 instead of 88.  64+16+8+4+1+1+1 = 95.
    "earthly_hand": ("123m456m789mEEE5m5m", {"self_drawn": True, "earthly_hand": True}, {
        "earthly_hand": 1, "pure_straight": 1, "half_flush": 1, "fully_concealed_hand": 1,
        "pung_of_terminals_or_honors": 1, "pair_258": 1, "closed_wait": 1}, 95),
    # EEE SSS CCC FFF N + N on a discard: All Honors 64 (removes All Terminals
    # and Honors, All Pungs, Pung of Terminals or Honors), Four Concealed Pungs
    # 64 (the win is in the pair; removes Concealed Hand), Two Dragons Pungs 6,
    # 放铳 4, Single Wait 1.  64+64+6+4+1 = 139.
    "all_honors": ("EEESSSCCCFFFNN", {}, {
        "all_honors": 1, "four_concealed_pungs": 1, "two_dragons_pungs": 1, "win_off_a_discard": 1,
        "single_wait": 1}, 139),
    # melded 222m 333m 444m, 555m 6m + 6m: Four Pure Shifted Pungs 48 (removes
    # All Pungs), Full Flush 24 (removes No Honors), 放铳 4.  Waits 6m, 7m and
    # (by shape) 4m: no wait fan.  48+24+4 = 76.
    "four_pure_shifted_pungs": ("[222m1][333m1][444m1]555m6m6m", {}, {
        "four_pure_shifted_pungs": 1, "full_flush": 1, "win_off_a_discard": 1}, 76),
    # 123m x4 E + E: read as four chows, Quadruple Chow 48 (removes Pure
    # Triple Chow, Pure Shifted Pungs, Pure Double Chow), Half Flush 8,
    # Concealed Hand 2, 放铳 4, Single Wait 1 = 63; read as 111 222 333 123 it
    # would be 24+16+8+2+4+1+1 = 56.  63.
    "quadruple_chow": ("123m123m123m123mEE", {}, {
        "quadruple_chow": 1, "half_flush": 1, "concealed_hand": 1, "win_off_a_discard": 1,
        "single_wait": 1}, 63),
    # 123 234 345 456m N + N: Four Pure Shifted Chows 32 (removes Pure Shifted
    # Chows, Short Straight, Two Terminal Chows, Pure Double Chow), Half Flush
    # 8, Concealed Hand 2, 放铳 4, Single Wait 1.  32+8+2+4+1 = 47.
    "four_pure_shifted_chows": ("123m234m345m456mNN", {}, {
        "four_pure_shifted_chows": 1, "half_flush": 1, "concealed_hand": 1, "win_off_a_discard": 1,
        "single_wait": 1}, 47),
    # kongs 1111m (melded), EEEE (concealed), SSSS (melded), 234m 5m + 5m:
    # Three Kongs 32 (removes Two Kongs, Melded Kong, Concealed Kong), Half
    # Flush 8, Pung of Terminals or Honors x3, 2-5-8 Pair 1, 放铳 4; waits 5m
    # and 2m: no wait fan.  32+8+3+1+4 = 48.
    "three_kongs": ("[1111m1][EEEE][SSSS2]234m5m5m", {}, {
        "three_kongs": 1, "half_flush": 1, "pung_of_terminals_or_honors": 3, "pair_258": 1,
        "win_off_a_discard": 1}, 48),
    # the pure-straight hand on a discard within the first go-around:
    # Human Hand 32 + 16+8+2+4+1+1+1 = 65.
    "human_hand": ("123m456m789mEEE5m5m", {"human_hand": True}, {
        "human_hand": 1, "pure_straight": 1, "half_flush": 1, "concealed_hand": 1, "win_off_a_discard": 1,
        "pung_of_terminals_or_honors": 1, "pair_258": 1, "closed_wait": 1}, 65),
    # melded 111m 999m EEE, SSS N + N: All Terminals and Honors 32 (removes
    # All Pungs and Pung of Terminals or Honors), Half Flush 8, 放铳 4, Single
    # Wait 1.  32+8+4+1 = 45.
    "all_terminals_and_honors": ("[111m1][999m1][EEE1]SSSNN", {}, {
        "all_terminals_and_honors": 1, "half_flush": 1, "win_off_a_discard": 1, "single_wait": 1}, 45),
    # the pure-straight hand, ready at the start: 32 + 16+8+2+4+1+1+1 = 65.
    "ready_at_start": ("123m456m789mEEE5m5m", {"ready_at_start": True}, {
        "ready_at_start": 1, "pure_straight": 1, "half_flush": 1, "concealed_hand": 1,
        "win_off_a_discard": 1, "pung_of_terminals_or_honors": 1, "pair_258": 1, "closed_wait": 1}, 65),
    # 11 33 55 77 99m EE C + C: Seven Pairs 24 (removes Concealed Hand and
    # Single Wait), Half Flush 8, 放铳 4.  24+8+4 = 36.
    "seven_pairs": ("1133557799mEECC", {}, {"seven_pairs": 1, "half_flush": 1, "win_off_a_discard": 1}, 36),
    # 123 345 678 999m 5m + 5m: Full Flush 24 (removes No Honors), Pung of
    # Terminals or Honors (999m) 1, Short Straight (345 678) 1, Concealed Hand
    # 2, 放铳 4, 2-5-8 Pair 1; waits 5m and 2m: no wait fan.  24+1+1+2+4+1 = 33.
    "full_flush": ("123345678999m5m5m", {}, {
        "full_flush": 1, "pung_of_terminals_or_honors": 1, "short_straight": 1, "concealed_hand": 1,
        "win_off_a_discard": 1, "pair_258": 1}, 33),
    # 222 333 444m 789m E + E: as pungs, Pure Shifted Pungs 24 + three
    # concealed pungs 16 + Half Flush 8 + Concealed Hand 2 + 放铳 4 + Single
    # Wait 1 = 55 (as three 234 chows: Pure Triple Chow 24 + 8+2+4+1 = 39).  55.
    "pure_shifted_pungs": ("222m333m444m789mEE", {}, {
        "pure_shifted_pungs": 1, "three_concealed_pungs": 1, "half_flush": 1, "concealed_hand": 1,
        "win_off_a_discard": 1, "single_wait": 1}, 55),
    # melded 123m 123m, 123m 567m N + N: Pure Triple Chow 24 (removes Pure
    # Double Chow; 567 forms nothing with 123), Half Flush 8, 放铳 4, Single
    # Wait 1.  24+8+4+1 = 37.
    "pure_triple_chow": ("[123m1][123m1]123m567mNN", {}, {
        "pure_triple_chow": 1, "half_flush": 1, "win_off_a_discard": 1, "single_wait": 1}, 37),
    # 123 234 345m EEE 9m + 9m: Pure Shifted Chows 16, Half Flush 8, Pung of
    # Terminals or Honors 1, Concealed Hand 2, 放铳 4, Terminal Pair 1, Single
    # Wait 1.  16+8+1+2+4+1+1 = 33.
    "pure_shifted_chows": ("123m234m345mEEE9m9m", {}, {
        "pure_shifted_chows": 1, "half_flush": 1, "pung_of_terminals_or_honors": 1, "concealed_hand": 1,
        "win_off_a_discard": 1, "terminal_pair": 1, "single_wait": 1}, 33),
    # 123 456 789m EEE 5m + 5m on a discard: Pure Straight 16 (the page's
    # 青龙 is a typo for 清龙), Half Flush 8, Concealed Hand 2, 放铳 4, Pung of
    # Terminals or Honors 1, 2-5-8 Pair 1, Closed Wait 1.  33.
    "pure_straight": ("123m456m789mEEE5m5m", {}, {
        "pure_straight": 1, "half_flush": 1, "concealed_hand": 1, "win_off_a_discard": 1,
        "pung_of_terminals_or_honors": 1, "pair_258": 1, "closed_wait": 1}, 33),
    # 111m 555m CCC 789m 2m + 2m: three concealed pungs 16, Half Flush 8,
    # Pung of Terminals or Honors x2 (111m, CCC), Concealed Hand 2, 放铳 4,
    # 2-5-8 Pair 1; 3m also wins (123 + 11): no wait fan.  16+8+2+2+4+1 = 33.
    "three_concealed_pungs": ("111m555mCCC789m2m2m", {}, {
        "three_concealed_pungs": 1, "half_flush": 1, "pung_of_terminals_or_honors": 2, "concealed_hand": 1,
        "win_off_a_discard": 1, "pair_258": 1}, 33),
    # melded 678m 678m 789m, 999m 6m + 6m: Upper Four 12 (the MCR definition,
    # ruling of the garbled 12-fan passage; removes No Honors) and Full Flush
    # 24 (both count, option upper_four_keeps_full_flush), Pung of Terminals
    # or Honors 1, Pure Double Chow 1, 放铳 4, Single Wait 1 (6m is the only
    # tile).  12+24+1+1+4+1 = 43.
    "upper_four": ("[678m1][678m1][789m1]999m6m6m", {}, {
        "upper_four": 1, "full_flush": 1, "pung_of_terminals_or_honors": 1, "pure_double_chow": 1,
        "win_off_a_discard": 1, "single_wait": 1}, 43),
    # EEE SSS WWW 123m 5m + 5m: Big Three Winds 12 (the MCR definition, ruling
    # of the garbled passage; its three wind pungs give no Pung of Terminals
    # or Honors), three concealed pungs 16, Half Flush 8, Concealed Hand 2,
    # 放铳 4, 2-5-8 Pair 1, Single Wait 1.  12+16+8+2+4+1+1 = 44.
    "big_three_winds": ("EEESSSWWW123m5m5m", {}, {
        "big_three_winds": 1, "three_concealed_pungs": 1, "half_flush": 1, "concealed_hand": 1,
        "win_off_a_discard": 1, "pair_258": 1, "single_wait": 1}, 44),
    # concealed kong EEEE, 123 456 789m 5m + 5m self-drawn on the kong's
    # replacement: Out with Replacement Tile 8, Pure Straight 16, Half Flush 8,
    # Fully Concealed Hand 4 (a concealed kong keeps the hand concealed),
    # Concealed Kong 2, Pung of Terminals or Honors 1, 2-5-8 Pair 1, Closed
    # Wait 1.  8+16+8+4+2+1+1+1 = 41.
    "out_with_replacement_tile": ("[EEEE]123m456m789m5m5m", {"self_drawn": True, "kong": True}, {
        "out_with_replacement_tile": 1, "pure_straight": 1, "half_flush": 1, "fully_concealed_hand": 1,
        "concealed_kong": 1, "pung_of_terminals_or_honors": 1, "pair_258": 1, "closed_wait": 1}, 41),
    # melded 222m 444m, 666m CCC 8m + 8m: All Pungs 6, Half Flush 8, two
    # concealed pungs (666m, CCC) 6, Pung of Terminals or Honors (CCC) 1,
    # 2-5-8 Pair 1, 放铳 4; 7m also wins: no wait fan.  6+8+6+1+1+4 = 26.
    "all_pungs": ("[222m1][444m1]666mCCC8m8m", {}, {
        "all_pungs": 1, "half_flush": 1, "two_concealed_pungs": 1, "pung_of_terminals_or_honors": 1,
        "pair_258": 1, "win_off_a_discard": 1}, 26),
    # four melded sets 123m 456m EEE 789m, 5m + 5m: Melded Hand 6 (removes
    # Single Wait), Pure Straight 16, Half Flush 8, Pung of Terminals or
    # Honors 1, 2-5-8 Pair 1, 放铳 4.  6+16+8+1+1+4 = 36.
    "melded_hand": ("[123m1][456m1][EEE1][789m1]5m5m", {}, {
        "melded_hand": 1, "pure_straight": 1, "half_flush": 1, "pung_of_terminals_or_honors": 1,
        "pair_258": 1, "win_off_a_discard": 1}, 36),
    # melded kong 1111m, concealed kong EEEE, 234m 678m 5m + 5m: Two Kongs 4
    # (removes Melded Kong and Concealed Kong), Half Flush 8, Pung of
    # Terminals or Honors x2, 2-5-8 Pair 1, 放铳 4; 2m also wins.  4+8+2+1+4 = 19.
    "two_kongs": ("[1111m1][EEEE]234m678m5m5m", {}, {
        "two_kongs": 1, "half_flush": 1, "pung_of_terminals_or_honors": 2, "pair_258": 1,
        "win_off_a_discard": 1}, 19),
    # concealed kong EEEE, 123 456 789m 5m + 5m on a discard: Concealed Kong 2,
    # Pure Straight 16, Half Flush 8, Concealed Hand 2, 放铳 4, Pung of
    # Terminals or Honors 1, 2-5-8 Pair 1, Closed Wait 1.  35.
    "concealed_kong": ("[EEEE]123m456m789m5m5m", {}, {
        "concealed_kong": 1, "pure_straight": 1, "half_flush": 1, "concealed_hand": 1,
        "win_off_a_discard": 1, "pung_of_terminals_or_honors": 1, "pair_258": 1, "closed_wait": 1}, 35),
    # 123 123 456m EEE 9m + 9m: Pure Double Chow 1 and Short Straight 1 (three
    # chows: at most two chow-pair fans, the repeated Short Straight counted
    # once), Half Flush 8, Pung of Terminals or Honors 1, Concealed Hand 2,
    # 放铳 4, Terminal Pair 1, Single Wait 1.  1+1+8+1+2+4+1+1 = 19.
    "pure_double_chow": ("123m123m456mEEE9m9m", {}, {
        "pure_double_chow": 1, "short_straight": 1, "half_flush": 1, "pung_of_terminals_or_honors": 1,
        "concealed_hand": 1, "win_off_a_discard": 1, "terminal_pair": 1, "single_wait": 1}, 19),
    # melded kong 1111m, 234m 567m EEE 9m + 9m: Melded Kong 1, Half Flush 8,
    # Pung of Terminals or Honors x2, Short Straight 1, 放铳 4, Terminal Pair
    # 1, Single Wait 1.  1+8+2+1+4+1+1 = 18.
    "melded_kong": ("[1111m1]234m567mEEE9m9m", {}, {
        "melded_kong": 1, "half_flush": 1, "pung_of_terminals_or_honors": 2, "short_straight": 1,
        "win_off_a_discard": 1, "terminal_pair": 1, "single_wait": 1}, 18),
    # the melded-kong hand with two flowers: 18 + 2 (花牌, 1 each) = 20.
    "flower_tiles": ("[1111m1]234m567mEEE9m9m", {"flowers": 2}, {
        "melded_kong": 1, "half_flush": 1, "pung_of_terminals_or_honors": 2, "short_straight": 1,
        "win_off_a_discard": 1, "terminal_pair": 1, "single_wait": 1, "flower_tiles": 2}, 20),
}

# fans no hand above shows, with the reason
_NOT_SHOWN = {
    # every hand without honors is a Full Flush here (characters are the only
    # suit), and Full Flush removes No Honors: No Honors never scores.
    "no_honors",
}


def test_every_fan_has_a_case():
    shown = set()
    for _h, _ctx, f, _t in CASES.values():
        shown |= set(f)
    missing = set(TP.table.keys) - shown - _NOT_SHOWN
    assert not missing, f"fans without a worked hand: {sorted(missing)}"


@pytest.mark.parametrize("name", sorted(CASES))
def test_fan_case(name):
    hand, ctx, want, total = CASES[name]
    s = score(hand, rules="two_player", **ctx)
    assert fans(s) == want
    assert s.total == total == sum(TP.table[k].points * c for k, c in want.items())


def test_no_honors_is_always_inside_full_flush():
    s = score("123m456m789m234m5m5m", rules="two_player")
    assert "full_flush" in fans(s) and "no_honors" not in fans(s)


def test_batch_matches_single_scores():
    hands = [(h, ctx) for h, ctx, _f, _t in CASES.values()]
    recs = [dict(hand=h, **ctx) for h, ctx in hands]
    res = mjfast.score_batch(recs, rules="two_player")
    for i, (h, ctx) in enumerate(hands):
        s = score(h, rules="two_player", **ctx)
        assert res.totals[i] == s.total
        assert {k: c for k, c in zip(res.fan_keys, res.fan_counts[i]) if c} == fans(s)
        assert res.record(i)["rules"] == "two_player"


# -- exclusions and rulings -----------------------------------------------------

def test_only_the_highest_heavenly_fan():
    # proposed exclusion: only the highest of 天和 / 地和 / 人和 counts
    s = score("123m456m789mEEE5m5m", rules="two_player", self_drawn=True, heavenly_hand=True, human_hand=True)
    assert "heavenly_hand" in fans(s) and "human_hand" not in fans(s)
    both = score("123m456m789mEEE5m5m", rules=TP.with_options(highest_heavenly_only=False),
                 self_drawn=True, heavenly_hand=True, human_hand=True)
    assert both.total == s.total + 32


def test_heavenly_hand_needs_a_self_drawn_win():
    s = score("123m456m789mEEE5m5m", rules="two_player", heavenly_hand=True)
    assert "heavenly_hand" not in fans(s) and "heavenly_hand" in s.ignored_flags
    with pytest.raises(mjfast.InvalidHand, match="heavenly_hand"):
        score("123m456m789mEEE5m5m", rules="two_player", heavenly_hand=True, strict=True)


def test_fangchong_option():
    # 放铳 "抢别人的牌和牌": by default any discard win; with fangchong="rob_kong"
    # only robbing a kong (the kong flag on a discard win)
    rk = TP.with_options(fangchong="rob_kong")
    assert "win_off_a_discard" not in fans(score("123m456m789mEEE5m5m", rules=rk))
    s = score("123m456m789mEEE4m5m".replace("4m5m", "46m5m"), rules=rk, kong=True) if False else None
    # 5m is in hand twice, so the kong flag cannot hold on 5m: use 13 + 3m
    s = score("12m456m789mEEE55m3m", rules=rk, kong=True)
    assert "win_off_a_discard" in fans(s)
    assert "win_off_a_discard" not in fans(score("12m456m789mEEE55m3m", rules=rk))
    assert "win_off_a_discard" not in fans(score("12m456m789mEEE55m3m", rules="two_player", self_drawn=True))


def test_added_kong_option():
    # 明杠 "杠别人打出来的牌": proposed, a kong added to one's own pung counts too
    base = score("[1111m5]234m567mEEE9m9m", rules="two_player")
    assert fans(base)["melded_kong"] == 1
    off = score("[1111m5]234m567mEEE9m9m", rules=TP.with_options(added_kong_is_melded_kong=False))
    assert "melded_kong" not in fans(off) and off.total == base.total - 1


def test_unique_wait_option():
    # 边张 / 嵌张 / 单钓: proposed, only when it was the only winning tile (MCR);
    # the full-flush hand waits on 2m and 5m, so 5m in the pair gets nothing
    h = "123345678999m5m5m"
    assert "single_wait" not in fans(score(h, rules="two_player"))
    # without the ruling the 5m in the pair is a Single Wait (345 + 5m is the
    # open end of 34m, no edge or closed wait)
    assert fans(score(h, rules=TP.with_options(unique_wait_only=False)))["single_wait"] == 1


def test_upper_four_option():
    s = score("[678m1][678m1][789m1]999m6m6m", rules=TP.with_options(upper_four_keeps_full_flush=False))
    assert "full_flush" not in fans(s) and s.total == 43 - 24


def test_big_four_winds_reading():
    # the page's "every tile a wind" is impossible; the MCR definition holds
    # (four wind pungs + any pair), so the pair may be characters
    assert "big_four_winds" in fans(score("EEESSSWWWNN11mN", rules="two_player"))


def test_two_dragon_pungs_and_a_lone_dragon_pung():
    # a lone dragon pung is not a fan here (no 箭刻): it is a Pung of Terminals
    # or Honors; two dragon pungs are Two Dragons Pungs and not also that
    s = score("111m333mEEEFFF9m9m", rules="two_player", self_drawn=True)
    assert fans(s)["pung_of_terminals_or_honors"] == 3


def test_kong_flag_dropped_without_a_kong():
    s = score("123m456m789mEEE5m5m", rules="two_player", self_drawn=True, kong=True)
    assert "out_with_replacement_tile" not in fans(s) and "kong" in s.ignored_flags


def test_flags_two_player_does_not_use():
    s = score("123m456m789mEEE5m5m", rules="two_player", last_tile=True, seat_wind="S")
    assert set(s.ignored_flags) == {"last_tile", "winds"}
    with pytest.raises(mjfast.InvalidHand, match="last_tile"):
        score("123m456m789mEEE5m5m", rules="two_player", last_tile=True, strict=True)


def test_tiles_outside_the_rule_set():
    for hand in ("123p456m789mEEE5m5m", "[123s1]456m789mEEE5m5m"):
        with pytest.raises(mjfast.InvalidHand, match="two_player"):
            score(hand, rules="two_player")
    res = mjfast.score_batch(["123p456m789mEEE5m5m", "123m456m789mEEE5m5m"], rules="two_player")
    assert list(res.errors) == [1, 0] and "two_player" in res.error_message(0)


def test_minimum_and_flowers():
    # 起和 8 (proposed, flowers not counted): the melded-kong hand is 18;
    # with min_fan=20 it is short even with 2 flowers (20 - 2 = 18 < 20)
    s = score("[1111m1]234m567mEEE9m9m", rules=TP.with_options(min_fan=20), flowers=2)
    assert s.total == 20 and not s.is_legal_win
    assert score("[1111m1]234m567mEEE9m9m", rules="two_player").is_legal_win
    low = score("[123m1][456m1]789m11mEE1m", rules="two_player")   # a small hand
    assert low.is_legal_win == (low.total >= 8)


# -- settlement -----------------------------------------------------------------

def test_settlement():
    s = score("[1111m1]234m567mEEE9m9m", rules="two_player")      # 18
    assert s.settlement() == (18, -18)
    assert s.settlement(balance=10) == (10, -10)                    # 扣光为止
    s3 = score("[1111m1]234m567mEEE9m9m", rules=TP.with_options(fan_value=3))
    assert s3.settlement() == (54, -54)
    sd = score("[1111m1]234m567mEEE9m9m", rules="two_player", self_drawn=True)
    assert sd.settlement() == (sd.total, -sd.total)                 # the same on a self-drawn win
    with pytest.raises(ValueError):
        s.settlement(2)


def test_side_payouts():
    # any kong: 1 base unit at once; flowers: nothing below 4, then n - 3
    assert [kong_payout(k) for k in range(5)] == [0, 1, 2, 3, 4]
    assert [flower_payout(n) for n in range(9)] == [0, 0, 0, 0, 1, 2, 3, 4, 5]
    assert flower_payout(8, fan_value=2) == 10


def test_options_are_checked():
    with pytest.raises(mjfast.InvalidOption, match="fangchong"):
        TP.with_options(fangchong="sometimes")
    with pytest.raises(mjfast.InvalidOption, match="hand_size"):
        TP.with_options(hand_size=16)
    with pytest.raises(mjfast.InvalidOption, match="no option"):
        TP.with_options(nope=1)


def test_forms_and_tiles_in_the_core_functions():
    # thirteen orphans is no form here: shanten counts regular and seven pairs only
    assert mjfast.shanten("119mESWNCFP1234m") == 3
    assert mjfast.shanten("119mESWNCFP1234m", rules="two_player") == 4
    with pytest.raises(ValueError, match="two_player"):
        mjfast.shanten("119mESWNCFP1234m", rules="two_player", form="thirteen_orphans")
    assert mjfast.waits("1122334455667m", rules="two_player") == [0, 3, 6]
    assert mjfast.is_win("11223344556677m", rules="two_player")
    with pytest.raises(mjfast.InvalidHand, match="two_player"):
        mjfast.is_win("11223344556677p", rules="two_player")
    wt = mjfast.winning_tiles("1122334455667m", rules="two_player")
    assert [w.tile for w in wt] == [0, 3, 6]
    # 7m: 11..77 as seven shifted pairs, 88 + 4 on a discard, 88 self-drawn
    assert (wt[2].discard_total, wt[2].self_drawn_total) == (92, 88)
    d = mjfast.best_discards("19mESWNCFP12345m", rules="two_player")
    assert d[0].shanten == 5 and all(x.shanten >= 5 for x in d)


# -- the compiled predicates against the plain-Python statement -------------------

def _random_hands(n, seed):
    """Random two-player winning hands: four sets and a pair (some sets melded,
    kongs among them) or seven pairs, with a random winning tile and context."""
    import random

    from mjfast.hand import Hand, Meld

    rng = random.Random(seed)
    tiles = list(range(9)) + list(range(27, 34))
    out = []
    while len(out) < n:
        c = [0] * 34
        if rng.random() < 0.1:
            kinds = rng.sample(tiles if rng.random() < 0.5 else list(range(9)), 7)
            if rng.random() < 0.3:
                s = rng.randrange(3)
                kinds = list(range(s, s + 7))
            conc = [t for t in kinds for _ in range(2)]
            melds = ()
        else:
            sets = []
            for _ in range(4):
                if rng.random() < 0.5:
                    s = rng.randrange(7) if rng.random() < 0.7 else rng.choice((0, 3, 6))
                    sets.append(("chow", s))
                else:
                    sets.append(("pung", rng.choice(tiles)))
            pair = rng.choice(tiles)
            for k, t in sets:
                for d in ((0, 1, 2) if k == "chow" else (0, 0, 0)):
                    c[t + d] += 1
            c[pair] += 2
            if max(c) > 4:
                continue
            nm = rng.choice((0, 0, 1, 2, 3, 4))
            melds, conc = [], [pair, pair]
            for i, (k, t) in enumerate(sets):
                if i < nm:
                    if k == "pung" and c[t] < 4 and rng.random() < 0.4:
                        c[t] += 1
                        concealed = rng.random() < 0.4
                        melds.append(Meld("kong", t, concealed=concealed,
                                          claimed=0 if concealed else 1,
                                          added=not concealed and rng.random() < 0.3))
                    else:
                        melds.append(Meld(k, t, claimed=1))
                else:
                    conc += [t, t + 1, t + 2] if k == "chow" else [t, t, t]
            melds = tuple(melds)
        win = rng.choice(conc)
        conc.remove(win)
        h = Hand(melds, tuple(sorted(conc)) + (win,), rng.choice((0, 0, 0, 2, 5)))
        ctx = {"self_drawn": rng.random() < 0.4, "kong": rng.random() < 0.15}
        for k in ("heavenly_hand", "earthly_hand", "human_hand", "ready_at_start"):
            ctx[k] = rng.random() < 0.05
        opts = {"fangchong": rng.choice(("discard", "rob_kong")), "unique_wait_only": rng.random() < 0.8,
                "added_kong_is_melded_kong": rng.random() < 0.8, "highest_heavenly_only": rng.random() < 0.8,
                "upper_four_keeps_full_flush": rng.random() < 0.8}
        out.append((h, ctx, opts))
    return out


def test_compiled_predicates_match_the_python_statement():
    from mjfast.rules.two_player import score_two_player, score_two_player_py

    n_ok = 0
    for h, ctx, opts in _random_hands(6000, seed=11):
        rs = TP.with_options(**opts)
        a = score_two_player(h, rs, ctx)
        b = score_two_player_py(h, rs, ctx)
        assert a == b, (str(h), ctx, opts, a, b)
        n_ok += a[0] >= 0
    assert n_ok == 6000          # every generated hand is a win


# ---------------------------------------------------------------------------
# score_batch: the compiled batch kernel against the row-by-row path
# ---------------------------------------------------------------------------

def _tp_batch_records(n, seed):
    """The generator's hands that use two-player tiles, with random context
    flags (heavenly / earthly / human / ready, kong, fourth and last tile),
    kongs added to a pung, a few hands with dots (a tile error) and a few
    that are not winning (a tile swapped)."""
    import random
    import handgen
    rng = random.Random(seed)
    out = []
    for rec in handgen.iter_winning_records(n * 12, seed=seed):
        if any(ch in rec["hand"] for ch in "ps"):
            continue
        rec = dict(rec)
        for k in ("heavenly_hand", "earthly_hand", "human_hand", "ready_at_start"):
            if rng.random() < 0.08:
                rec[k] = True
        for k in ("kong", "fourth_tile", "last_tile", "self_drawn"):
            if rng.random() < 0.1:
                rec[k] = not rec.get(k, False)
        if rng.random() < 0.9:
            # (winds two-player has no fan for are reported, an error under
            # strict, as score() does: most rows keep East)
            rec["seat_wind"] = rec["round_wind"] = "E"
        if "[" in rec["hand"] and rng.random() < 0.3:
            # a kong meld's claimed position 5-7: added to one's own pung
            rec["hand"] = re.sub(r"\[(\d)\1\1\1m\d?\]", lambda m: f"[{m.group(1) * 4}m{rng.choice('567')}]",
                                 rec["hand"], count=1)
        r = rng.random()
        if r < 0.02:
            rec["hand"] = "123p" + rec["hand"][4:] if rec["hand"][:1].isdigit() else rec["hand"]
        elif r < 0.05:
            rec["hand"] = rec["hand"].replace("1m", "2m", 1)
        out.append(rec)
        if len(out) == n:
            break
    return out


@pytest.mark.parametrize("options", [{}, {"fangchong": "rob_kong", "unique_wait_only": True},
                                     {"added_kong_is_melded_kong": False, "highest_heavenly_only": False,
                                      "upper_four_keeps_full_flush": True}])
@pytest.mark.parametrize("strict", [False, True])
def test_compiled_batch_equals_the_row_path(options, strict):
    from mjfast.batch import HandBatch
    from mjfast.scoring.batch_rules import score_batch_rules as _score_batch_rules
    rs = TP.with_options(**options)
    recs = _tp_batch_records(3000, seed=77 + len(options))
    b = HandBatch.from_records(recs)
    fast = _score_batch_rules(b, rs, 1, strict, compiled=True)
    slow = _score_batch_rules(b, rs, 1, strict, compiled=False)
    assert (fast.errors == slow.errors).all()
    assert (fast.totals == slow.totals).all()
    assert (fast.fan_counts == slow.fan_counts).all()
    assert (fast.legal == slow.legal).all()
    assert fast.messages == slow.messages
    assert fast.extra_ignored == slow.extra_ignored
    # the mix reaches every branch the kernel has
    assert (fast.totals > 0).sum() > 1000
    assert (fast.errors != 0).any()
    if strict:
        assert any(m.endswith("(strict=True)") and "kong" in m for m in fast.messages.values())
    else:
        assert any("kong" in d for d in fast.extra_ignored.values())
    # the kernel itself took every row that is not an error (none left to the
    # row path: the equalities above test the kernel)
    from mjfast import _fans
    from mjfast.batch import ERR_INVALID
    n = len(b)
    raw = np.zeros(n, np.int32)
    _fans.two_player_batch_kernel(b.counts, b.melds, b.n_melds, b.added, b.win_tile, b.flags, b.rule_flags,
                                  b.invalid.view(np.uint8), 0, raw, np.zeros((n, 51), np.uint8),
                                  np.zeros(n, np.uint8), 1)
    assert not (raw[fast.errors != ERR_INVALID] == -3).any()
    # two threads give the same answers
    two = _score_batch_rules(b, rs, 2, strict, compiled=True)
    assert (two.totals == fast.totals).all() and (two.fan_counts == fast.fan_counts).all()


def test_compiled_batch_takes_added_kongs():
    # [1111m5]: a kong added to one's own pung (18 by default, 17 with
    # added_kong_is_melded_kong off: tests/test_rules_added_kong.py)
    from mjfast.batch import score_batch
    hands = ["[1111m5]234m567mEEE9m9m", "[1111m1]234m567mEEE9m9m"]
    assert score_batch(hands, rules="two_player").totals.tolist() == [18, 18]
    assert score_batch(hands, rules=TP.with_options(added_kong_is_melded_kong=False)).totals.tolist() == [17, 18]


def test_compiled_batch_leaves_rows_it_refuses_to_the_row_path():
    # a row changed after validation (a pung meld marked concealed, which no
    # notation makes): the kernel refuses it (-3) and the row path words the error
    from mjfast import _fans
    from mjfast.batch import HandBatch
    from mjfast.scoring.batch_rules import score_batch_rules as _score_batch_rules
    b = HandBatch.from_records([{"hand": "[111m1]234m567mEEE9m9m"}, {"hand": "123m456m789mEEE5m5m"}])
    b.melds[0, 0, 2] = 0
    n = len(b)
    totals = np.zeros(n, np.int32)
    _fans.two_player_batch_kernel(b.counts, b.melds, b.n_melds, b.added, b.win_tile, b.flags, b.rule_flags,
                                  np.zeros(n, np.uint8), 0, totals, np.zeros((n, 51), np.uint8),
                                  np.zeros(n, np.uint8), 1)
    assert totals.tolist()[0] == -3 and totals[1] > 0
    fast = _score_batch_rules(b, TP, 1, False, compiled=True)
    slow = _score_batch_rules(b, TP, 1, False, compiled=False)
    assert fast.errors.tolist() == slow.errors.tolist() and fast.errors[0] != 0
    assert fast.messages == slow.messages and 0 in fast.messages
    assert fast.totals.tolist() == slow.totals.tolist()
