"""Type hints of the native module (python/src/lib.rs); use the package's functions instead."""

from typing import Any, Dict, List, Optional, Tuple

__version__: str

class Refusal(Exception):
    """args: (message, kind)."""

def run_json(arguments: List[str]) -> Tuple[bool, str, str]: ...
def bundled_games() -> List[Tuple[str, str]]: ...
def solve_game(
    game: Any,
    at: Any = None,
    engine: Optional[str] = None,
    memory_limit: Optional[int] = None,
    time_limit: Optional[float] = None,
    line: bool = False,
    moves: bool = False,
    remoteness: bool = False,
) -> Dict[str, Any]: ...
def check_game(
    game: Any,
    seed: int = 1,
    max_states: int = 20000,
    playouts: int = 200,
    memory_limit: Optional[int] = None,
    time_limit: Optional[float] = None,
) -> Dict[str, Any]: ...
