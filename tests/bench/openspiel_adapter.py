"""Our engines as OpenSpiel games, so that OpenSpiel's own searches (``ISMCTSBot``) can play them (#35).

    game = openspiel_adapter.load("dominoes", {"variant": "block", "target": 1})
    state = game.new_initial_state()          # a chance node: the deal
    state.apply_action(deal)                  # deal number ``deal`` = the engine's seed
    state.information_state_string(seat)      # that seat's view, serialised canonically
    state.resample_from_infostate(seat, sampler)   # engine.determinize(that view, rng)

Everything OpenSpiel sees of a seat goes through the engine's public contract: ``view(state, seat)``
for the information state, ``determinize(view, rng)`` (CONTRACT.md: a full state built from the view
alone, after a JSON round trip) for the resampler. So a search playing through this adapter knows what
that seat's player knows, nothing more; tests/bench/test_openspiel_adapter.py guards it.

- **Chance**: one chance node, the deal: outcome ``d`` starts the engine with seed ``d`` (the seed
  also fixes every later shuffle, as at a real table). Later draws are not chance nodes: a resampled
  state's hidden stock is already shuffled by ``determinize``, which is what a determinizing search
  needs.
- **Actions**: the engine's action dicts, interned per game to integers in order of first sight
  (canonical JSON as the key), so the same action is the same integer in every sampled world of one
  information set, as ISMCTS requires.
- **Returns**: win/loss, +1 / −1 (0 for a shared first place): the benchmark measures the win rate,
  so the outside search is given that objective, bounded, which suits its UCT constant; the point
  margin is reported beside it (``margin``).
- **Turns**: sequential, the first seat of ``engine.to_act`` moves (as every bench and the service's
  computer turns do).

Needs ``open_spiel`` (the ``bench`` extra). Not collected by pytest (no ``test_`` prefix).
"""

from __future__ import annotations

import random
from typing import Any

import orjson
import pyspiel  # type: ignore[import-not-found]

from games import engines

#: Chance outcomes of the deal: deal numbers 0 … DEALS−1 (the engine's seed).
DEALS = 100_000
#: Upper bound on distinct actions told to OpenSpiel; the ids are interned as they are met.
MAX_ACTIONS = 1 << 20

_REGISTERED: dict[str, type[pyspiel.Game]] = {}


def canonical(data: Any) -> str:
    """Sorted keys, no spaces: the same data is the same string."""
    return orjson.dumps(data, option=orjson.OPT_SORT_KEYS).decode()


def roundtrip(view: dict[str, Any]) -> dict[str, Any]:
    """A view as a client receives it (JSON), which is what ``determinize`` is specified on."""
    out: dict[str, Any] = orjson.loads(orjson.dumps(view))
    return out


class _Shared:
    """The game and an engine state, which a clone shares: the engine states are immutable (``apply``
    returns a new one), and the game must not be copied (OpenSpiel would rebuild it from its name)."""

    __slots__ = ("game", "inner")

    def __init__(self, game: EngineGame, inner: Any) -> None:
        self.game = game
        self.inner = inner

    def __deepcopy__(self, memo: dict[int, Any]) -> _Shared:
        return self


class EngineState(pyspiel.State):  # type: ignore[misc]
    """One of our engine states (``inner``; None before the deal) behind OpenSpiel's state interface."""

    def __init__(self, game: EngineGame, inner: Any = None) -> None:
        super().__init__(game)
        # OpenSpiel clones a Python state by deep-copying its __dict__: both are shared, not copied.
        self._shared = _Shared(game, inner)

    @property
    def _game(self) -> EngineGame:
        return self._shared.game

    @property
    def inner(self) -> Any:
        return self._shared.inner

    @inner.setter
    def inner(self, value: Any) -> None:
        self._shared = _Shared(self._shared.game, value)

    def current_player(self) -> int:
        if self.inner is None:
            return int(pyspiel.PlayerId.CHANCE)
        seats = self._game.engine.to_act(self.inner)
        return int(seats[0]) if seats else int(pyspiel.PlayerId.TERMINAL)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(d, 1.0 / DEALS) for d in range(DEALS)]

    def _legal_actions(self, player: int) -> list[int]:
        # Inline: a search's playouts ask this at every step, for every action.
        game = self._game
        ids = game.ids
        out = []
        for action in game.engine.legal_actions(self.inner, player):
            key = orjson.dumps(action, option=orjson.OPT_SORT_KEYS)
            found = ids.get(key)
            out.append(game.intern(key, action) if found is None else found)
        out.sort()
        return out

    def legal_dicts(self) -> list[dict[str, Any]]:
        seat = self.current_player()
        out: list[dict[str, Any]] = self._game.engine.legal_actions(self.inner, seat)
        return out

    def _apply_action(self, action: int) -> None:
        engine = self._game.engine
        if self.inner is None:
            self.inner = engine.replay(engine.start(self._game.config, int(action)))
            return
        seat = self.current_player()
        for event in engine.decide(self.inner, seat, self._game.action_of(action)):
            self.inner = engine.apply(self.inner, event)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action}"
        return canonical(self._game.action_of(action))

    def is_terminal(self) -> bool:
        return self.inner is not None and not self._game.engine.to_act(self.inner)

    def outcome(self) -> dict[str, Any] | None:
        if self.inner is None:
            return None
        out: dict[str, Any] | None = self._game.engine.outcome(self.inner)
        return out

    def returns(self) -> list[float]:
        result = self.outcome()
        n = self._game.players
        if result is None:
            return [0.0] * n
        winners = set(result["winners"])
        if len(winners) == n:
            return [0.0] * n
        return [1.0 if s in winners else -1.0 for s in range(n)]

    def view(self, seat: int) -> dict[str, Any]:
        return roundtrip(self._game.engine.view(self.inner, seat))

    def information_state_string(self, player: int | None = None) -> str:
        seat = self.current_player() if player is None else player
        if self.inner is None:
            return f"{seat}|deal"
        return f"{seat}|{canonical(self._game.engine.view(self.inner, seat))}"

    def observation_string(self, player: int | None = None) -> str:
        return self.information_state_string(player)

    def resample_from_infostate(self, player: int, sampler: Any = None) -> EngineState:
        """A state drawn from those ``player`` cannot tell from this one, built from its view alone
        (the engine's ``determinize``); the sampler is ignored: the game's own rng draws."""
        if self.inner is None:
            return self._game.state_of(None)
        sample = self._game.engine.determinize(self.view(player), self._game.rng)
        return self._game.state_of(sample)

    def __str__(self) -> str:
        return "deal" if self.inner is None else canonical(self._game.engine.reveal(self.inner))


class EngineGame(pyspiel.Game):  # type: ignore[misc]
    """Base of the registered games ``tablehall_<engine>``; the parameter ``options`` is the table's
    chosen options as JSON (composed by ``engines.compose`` for two players)."""

    ENGINE = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = params or {}
        options = orjson.loads(str(params.get("options") or "{}"))
        players = int(params.get("players") or 2)
        super().__init__(_game_type(self.ENGINE), _game_info(players), params)
        self.engine = engines.get(self.ENGINE)
        self.config = engines.compose(self.engine, options, players)
        self.players = players
        self.rng = random.Random(int(params.get("rng_seed") or 0))
        self.ids: dict[bytes, int] = {}
        self._actions: list[dict[str, Any]] = []

    def new_initial_state(self) -> EngineState:
        return EngineState(self)

    def state_of(self, inner: Any) -> EngineState:
        return EngineState(self, inner)

    def action_id(self, action: dict[str, Any]) -> int:
        key = orjson.dumps(action, option=orjson.OPT_SORT_KEYS)
        found = self.ids.get(key)
        return self.intern(key, action) if found is None else found

    def intern(self, key: bytes, action: dict[str, Any]) -> int:
        """A new id for the action whose canonical JSON is ``key``."""
        found = self.ids[key] = len(self._actions)
        self._actions.append(action)
        return found

    def action_of(self, action_id: int) -> dict[str, Any]:
        return self._actions[int(action_id)]


def _game_type(engine: str) -> Any:
    return pyspiel.GameType(
        short_name=f"tablehall_{engine}",
        long_name=f"Tablehall {engine} (our engine)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=False,
        parameter_specification={"options": "{}", "players": 2, "rng_seed": 0},
    )


def _game_info(players: int) -> Any:
    return pyspiel.GameInfo(
        num_distinct_actions=MAX_ACTIONS,
        max_chance_outcomes=DEALS,
        num_players=players,
        min_utility=-1.0,
        max_utility=1.0,
        utility_sum=0.0,
        max_game_length=10_000,
    )


def game_class(engine: str) -> type[pyspiel.Game]:
    """The OpenSpiel game class of ``engine``, registered once as ``tablehall_<engine>``."""
    if engine not in _REGISTERED:
        engines.get(engine)  # IllegalAction for a name that is no engine
        cls = type(f"{engine.title()}Game", (EngineGame,), {"ENGINE": engine})
        pyspiel.register_game(_game_type(engine), cls)
        _REGISTERED[engine] = cls
    return _REGISTERED[engine]


def load(engine: str, options: dict[str, Any] | None = None, rng_seed: int = 0) -> EngineGame:
    """The two-player game of ``engine`` with the table options ``options`` (composed as any table's)."""
    game_class(engine)
    game: EngineGame = pyspiel.load_game(
        f"tablehall_{engine}", {"options": canonical(options or {}), "players": 2, "rng_seed": rng_seed}
    )
    return game
