"""The flags that cannot hold for a hand (docs/rulings.md, 4), written a
second time, plainly, from the rulings: the oracle of the kernel's check
(src/fankernel/fan_base.pxd, _impossible_flags), which the package uses
everywhere.  Bits as mjfast.spec.flags' win byte."""
from mjfast.spec import flags as _flags

_BITS = _flags.bits(_flags.WIN)
SELF_DRAWN, FOURTH, KONG = _BITS["self_drawn"], _BITS["fourth_tile"], _BITS["kong"]


def dropped_row(counts, melds, win, flags):
    """counts: 34 concealed counts, the winning tile included; melds: (kind
    0 chow / 1 pung / 2 kong, tile) pairs; win: the winning tile (-1: a
    wildcard); flags: the win bits given.  Returns the bits dropped."""
    held_elsewhere = 0 if win < 0 else counts[win] - 1     # other copies among the concealed tiles
    in_melds = 0
    for kind, tile in melds:
        if kind == 0:
            in_melds += tile <= win <= tile + 2
        elif tile == win:
            in_melds += 3 if kind == 1 else 4
    out = 0
    if flags & FOURTH and held_elsewhere > 0:
        out |= FOURTH
    if flags & KONG:
        if flags & SELF_DRAWN:
            if not any(kind == 2 for kind, _ in melds):
                out |= KONG                                 # out on a replacement tile without a kong
        elif held_elsewhere > 0 or in_melds > 0:
            out |= KONG                                     # robbing a kong of a tile the hand holds
    return out


def dropped_batch(counts, melds, n_melds, win, flags):
    """dropped_row over batch columns (HandBatch's)."""
    return [dropped_row(list(counts[i]), [(int(melds[i, j, 0]), int(melds[i, j, 1])) for j in range(n_melds[i])],
                        int(win[i]), int(flags[i])) for i in range(len(flags))]
