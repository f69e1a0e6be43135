"""Helpers for the game tests: walls built from the hands a fixture needs."""
from mjfast import parse_tiles
from mjfast.game import CODES, GameState


def tiles(s):
    return parse_tiles(s) if s else []


def make_walls(deals, draws=("", "", "", "")):
    """Four 34-tile walls: seat s gets ``deals[s]`` (13 tiles, compact notation,
    in order) then ``draws[s]`` as its first draws; the rest is filled with the
    unused tiles, honors last, so fillers rarely matter."""
    pool = [4] * 34
    for s in range(4):
        for t in tiles(deals[s]) + tiles(draws[s]):
            pool[t] -= 1
            assert pool[t] >= 0, f"fixture uses a fifth {CODES[t]}"
    # fillers: honors first (they never chow), then suits from the top
    order = list(range(33, 26, -1)) + list(range(26, -1, -1))
    filler = [t for t in order for _ in range(pool[t])]
    walls = []
    for s in range(4):
        deal = tiles(deals[s]) if deals[s] is not None else []
        assert len(deal) <= 13, (s, deals[s])
        while len(deal) < 13:          # a partial deal is completed with fillers
            deal.append(filler.pop(0))
        walls.append(deal + tiles(draws[s]))
    for w in walls:
        while len(w) < 34:
            w.append(filler.pop(0))
    return walls


def put_last(walls, seat, tile):
    """Make ``tile`` the last tile of seat's wall (swapped with a copy found in
    some wall's draw region)."""
    t = tiles(tile)[0]
    for w in walls:
        for i in range(13, 34):
            if w[i] == t:
                w[i], walls[seat][33] = walls[seat][33], w[i]
                return walls
    raise AssertionError(f"no {tile} left in the walls' draw regions")


def state(deals, draws=("", "", "", ""), quan=0, last=None):
    walls = make_walls(deals, draws)
    if last:
        put_last(walls, *last)
    return GameState(quan, walls=walls)


def code(s):
    return CODES[tiles(s)[0]]


def tsumo(st, n=1):
    """n times: the current seat draws and discards the drawn tile, nobody claims."""
    for _ in range(n):
        t = st.draw()
        st.turn("PLAY " + CODES[t])
        assert st.claim({}) is None
