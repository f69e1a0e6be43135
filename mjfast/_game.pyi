"""Type stub of compiled self-play (src/_game.pyx): FastGame is the engine (mjfast._engine.Engine) with the
built-in policies and a whole game's run."""
from typing import Any, Callable, Optional, Sequence

import numpy as np
from numpy.typing import NDArray
from typing_extensions import disjoint_base

from mjfast._engine import Engine
from mjfast._args import flat_out as flat_out
from mjfast._args import int_arg as int_arg
from mjfast._args import prob_arg as prob_arg
from mjfast._args import seat_arg as seat_arg
from mjfast._args import u64_arg as u64_arg

POLICY_TSUMOGIRI: int
POLICY_RANDOM: int
POLICY_BASELINE: int

#: the optional winners' hands of play_many / play_seeded:
#: counts (n, 34), melds (n, 4, 3), n_melds (n,), win_tile (n,), uint8
_HandsOut = tuple[NDArray[np.uint8], NDArray[np.uint8], NDArray[np.uint8], NDArray[np.uint8]]

@disjoint_base
class FastGame(Engine):
    def run(self, policies: Sequence[int], seed: int, p_claim: float = 0.5, p_kong: float = 0.7) -> None: ...
    def decide(self, seat: int, policy: int, seed: int = 1, p_claim: float = 0.5,
               p_kong: float = 0.7) -> tuple[int, int, int]: ...
    def rounds_array(self) -> NDArray[np.int8]: ...

def legal_masks(games: Sequence[FastGame], out: Optional[NDArray[np.uint8]] = None) -> NDArray[np.uint8]: ...
def observe_many(games: Sequence[FastGame], out: Optional[NDArray[np.int8]] = None) -> NDArray[np.int8]: ...
def action_layout() -> dict[str, dict[str, int]]: ...
def play_many(walls: NDArray[np.uint8], quans: NDArray[np.int8], policies: Sequence[int], seed_: int,
              p_claim_: float, p_kong_: float, hu_fn: Optional[Callable[..., int]], int32_out: NDArray[np.int32],
              hands_out: Optional[_HandsOut] = None) -> None: ...
def play_seeded(seed_: int, first_: int, n_: int, quan_: int, policies: Sequence[int], p_claim_: float,
                p_kong_: float, hu_fn: Optional[Callable[..., int]], int32_out: NDArray[np.int32],
                hands_out: Optional[_HandsOut] = None) -> None: ...
def shuffled_walls(seed_: int) -> NDArray[np.uint8]: ...
