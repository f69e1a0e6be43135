"""Type stub of the replay driver (src/_replay.pyx): a read match stepped
through the game engine, and the text archive's matches read by the pull
reader of mjfast._textlog and stepped the same way."""
from typing import Any, Callable, Optional, Sequence

#: the driver's refusal codes by name (mjfast/logs/replay.py words them)
FAILURES: dict[str, int]

# one tuple per segment: (0, start, stop, line) to read with the Python path,
# (1, ...) a Huang, (2, ...) a Hu (the fields: the docstring of replay_text)
def replay_text(data: bytes, first_line_: int, keys: tuple[str, ...],
                max_line: int = 65536) -> list[tuple[Any, ...]]: ...
# None if the match cannot be read; else (status, ...): the docstring of replay_match
def replay_match(m: Any, walls: Optional[Sequence[Sequence[str]]], tile_index: dict[str, int],
                 read_answer: Callable[..., Any]) -> Optional[tuple[Any, ...]]: ...
