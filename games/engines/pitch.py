"""Auction Pitch (Setback) for 2 to 7 players, or two partnerships at four.

Rule of record: ``rules/pitch.md``; what this module decided where the page is
silent is written in ``docs/games/pitch.md``.

The state is an immutable named tuple folded from events. Every event records an
outcome (the dealt hands, the trick winner, the points of a hand), so ``apply``
never judges a rule and never draws a random number. Undealt cards are never
written into an event: they are the cards of the deck that were not dealt.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, NamedTuple

from games.engines.base import Action, Config, Event, IllegalAction, View, _

NAME = "pitch"
VERSION = 1

SUITS = ("S", "H", "D", "C")
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
DECK: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS)
SUIT_OF: dict[str, str] = {c: c[-1] for c in DECK}
RANK_OF: dict[str, int] = {r + s: i for s in SUITS for i, r in enumerate(RANKS, start=2)}
CARD_POINTS: dict[str, int] = {c: {"10": 10, "A": 4, "K": 3, "Q": 2, "J": 1}.get(c[:-1], 0) for c in DECK}
SUIT_NAMES = {"S": "spade", "H": "heart", "D": "diamond", "C": "club"}
HAND_SIZE = 6
TRICKS = HAND_SIZE
TARGETS = (7, 11, 15, 21)
MIN_PLAYERS, MAX_PLAYERS = 2, 7
DEFAULT_MAX_HANDS, MAX_MAX_HANDS = 100, 200
_CONFIG_KEYS = {"players", "partnerships", "target", "dealer", "max_hands", "deck"}
_ACTION_FIELDS = {
    "pass": {"type"},
    "bid": {"type", "amount"},
    "pitch": {"type", "card"},
    "play": {"type", "card"},
}
_SORT_KEY: dict[str, int] = {c: i for i, c in enumerate(DECK)}

Play = tuple[int, str]  # (seat, card)
Trick = tuple[Play, ...]


class State(NamedTuple):
    """Immutable: ``apply`` returns a new one (``_replace`` is the cheapest copy Python offers)."""

    config: Config = {}  # never mutated
    players: int = 0
    seed: int | None = None
    hand_no: int = 0
    dealer: int = 0
    hands: tuple[tuple[str, ...], ...] = ()
    in_play: frozenset[str] = frozenset()  # the cards dealt this hand
    phase: str = "setup"  # setup, bidding, play, over
    bids: tuple[tuple[int, int], ...] = ()  # (seat, amount), 0 = pass, 4 = pitched
    pitcher: int | None = None
    bid: int = 0
    trump: str | None = None
    leader: int = 0
    trick: Trick = ()
    tricks: tuple[tuple[Trick, int], ...] = ()  # completed tricks of this hand and their winners
    scores: tuple[int, ...] = ()
    last_hand: dict[str, Any] | None = None
    winners: tuple[int, ...] = ()


# --------------------------------------------------------------------------- cards and sides


def sort_cards(cards: Sequence[str]) -> list[str]:
    return sorted(cards, key=_SORT_KEY.__getitem__)


def side_of(config: Config, seat: int) -> int:
    """Partners (seats 0 + 2, 1 + 3) share a side; otherwise every seat is its own side."""
    return seat % 2 if config["partnerships"] else seat


def sides(config: Config) -> list[list[int]]:
    n: int = config["players"]
    return [[0, 2], [1, 3]] if config["partnerships"] else [[s] for s in range(n)]


def trick_winner(trick: Sequence[Play], trump: str) -> int:
    """The highest trump, or failing that the highest card of the suit led."""
    led = SUIT_OF[trick[0][1]]
    best_seat, best = trick[0][0], -1
    for seat, card in trick:
        s = SUIT_OF[card]
        key = RANK_OF[card] + (40 if s == trump else 20 if s == led else 0)
        if key > best:
            best_seat, best = seat, key
    return best_seat


def hand_awards(captured: Sequence[Sequence[str]], trump: str) -> tuple[dict[str, int | None], list[int]]:
    """Who (by index into ``captured``) won High, Low, Jack and Game, and the trick points of each.

    Every dealt card is played, so the trumps "in play" are exactly the captured ones.
    """
    high = low = jack = None
    hi_rank, lo_rank = 0, 99
    jack_card = "J" + trump
    game_points = []
    for who, cards in enumerate(captured):
        total = 0
        for card in cards:
            total += CARD_POINTS[card]
            if SUIT_OF[card] == trump:
                r = RANK_OF[card]
                if r > hi_rank:
                    high, hi_rank = who, r
                if r < lo_rank:
                    low, lo_rank = who, r
                if card == jack_card:
                    jack = who
        game_points.append(total)
    best = max(game_points)
    game = game_points.index(best) if game_points.count(best) == 1 else None
    return {"high": high, "low": low, "jack": jack, "game": game}, game_points


def voids(players: int, trump: str | None, tricks: Sequence[Trick]) -> list[set[str]]:
    """Suits each seat has shown out of.

    A trump may be played even by a seat holding the suit led, so only a card that is
    neither the suit led nor trump proves a void (in trump itself when trump was led).
    """
    found: list[set[str]] = [set() for _ in range(players)]
    for trick in tricks:
        led = SUIT_OF[trick[0][1]]
        for seat, card in trick[1:]:
            s = SUIT_OF[card]
            if s != led and s != trump:
                found[seat].add(led)
    return found


# --------------------------------------------------------------------------- config


def default_config(players: int) -> Config:
    return validate_config({"players": players})


def validate_config(config: Config) -> Config:
    if not isinstance(config, dict):
        raise IllegalAction("bad_config", _("The table settings must be a set of named options."))
    unknown = sorted(str(k)[:30] for k in config if k not in _CONFIG_KEYS)
    if unknown:
        raise IllegalAction("unknown_option", _("Pitch has no option called {option}."), option=unknown[0])
    players = config.get("players")
    if type(players) is not int or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise IllegalAction("bad_players", _("Pitch is played by 2 to 7 players."))
    partnerships = config.get("partnerships", False)
    if type(partnerships) is not bool:
        raise IllegalAction("bad_partnerships", _("Partnerships must be on or off."))
    if partnerships and players != 4:
        raise IllegalAction("partnerships_need_four", _("Partnerships are played by exactly 4 players."))
    target = config.get("target", 7)
    if type(target) is not int or target not in TARGETS:
        raise IllegalAction("bad_target", _("The target must be 7, 11, 15 or 21 points."))
    dealer = config.get("dealer", 0)
    if type(dealer) is not int or not 0 <= dealer < players:
        raise IllegalAction("bad_dealer", _("The first dealer must be one of the seats."))
    max_hands = config.get("max_hands", DEFAULT_MAX_HANDS)
    if max_hands is not None and (type(max_hands) is not int or not 1 <= max_hands <= MAX_MAX_HANDS):
        raise IllegalAction("bad_max_hands", _("The hand limit must be from 1 to 200 hands, or none."))
    out: Config = {
        "players": players,
        "partnerships": partnerships,
        "target": target,
        "dealer": dealer,
        "max_hands": max_hands,
    }
    deck = config.get("deck")
    if deck is not None:
        if (
            not isinstance(deck, list)
            or not all(isinstance(c, str) and c in SUIT_OF for c in deck)
            or len(set(deck)) != len(deck)
            or len(deck) < HAND_SIZE * players
        ):
            raise IllegalAction(
                "bad_deck",
                _("The deck must list at least {count} different cards, like 10H or QS."),
                count=HAND_SIZE * players,
            )
        out["deck"] = list(deck)
    return out


def sample_configs() -> list[Config]:
    """Every player count, partnerships, every target and first dealer, with short hand limits.

    Random play almost never ends Pitch by the target (random pitchers bid 4 and are set
    back, so every score drifts down), so these tables stop after a few hands; the default
    limit (100 hands) is exercised by the tests of the hand limit.
    """
    options: list[Config] = [{"players": n, "max_hands": 6} for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)]
    options += [
        {"players": 4, "partnerships": True, "max_hands": 8},
        {"players": 3, "target": 11, "dealer": 2, "max_hands": 10},
        {"players": 2, "target": 15, "dealer": 1, "max_hands": 24},
        {"players": 4, "partnerships": True, "target": 21, "dealer": 3, "max_hands": 6},
    ]
    return [validate_config(o) for o in options]


# --------------------------------------------------------------------------- events


def start(config: Config, seed: int) -> list[Event]:
    config = validate_config(config)
    if type(seed) is not int:
        raise IllegalAction("bad_seed", _("The seed must be a whole number."))
    return [{"type": "setup", "config": config, "seed": seed}, _deal_event(config, seed, 1)]


def _deal_event(config: Config, seed: int | None, hand_no: int) -> Event:
    """Six cards each, three at a time, starting left of the dealer; ``config["deck"]`` stacks hand 1."""
    n: int = config["players"]
    dealer = (config["dealer"] + hand_no - 1) % n
    deck = config.get("deck")
    if hand_no != 1 or deck is None:
        shuffled = list(DECK)
        random.Random(f"{seed}:deal:{hand_no}").shuffle(shuffled)
        deck = shuffled
    hands: list[list[str]] = [[] for _ in range(n)]
    for packet in range(HAND_SIZE // 3):
        for k in range(n):
            start_at = 3 * (packet * n + k)
            hands[(dealer + 1 + k) % n].extend(deck[start_at : start_at + 3])
    return {"type": "deal", "hand": hand_no, "dealer": dealer, "hands": [sort_cards(h) for h in hands]}


def apply(state: State, event: Event) -> State:
    kind = event["type"]
    if kind == "play":
        seat, card = event["seat"], event["card"]
        return state._replace(hands=_without(state.hands, seat, card), trick=(*state.trick, (seat, card)))
    if kind == "trick":
        winner = event["winner"]
        return state._replace(tricks=(*state.tricks, (state.trick, winner)), trick=(), leader=winner)
    if kind == "pass" or kind == "bid":
        return state._replace(bids=(*state.bids, (event["seat"], event.get("amount", 0))))
    if kind == "pitch":
        seat, card = event["seat"], event["card"]
        return state._replace(
            bids=(*state.bids, (seat, 4)),
            pitcher=seat,
            bid=4,
            phase="play",
            leader=seat,
            hands=_without(state.hands, seat, card),
            trick=((seat, card),),
        )
    if kind == "pitcher":
        return state._replace(pitcher=event["seat"], bid=event["bid"], phase="play", leader=event["seat"])
    if kind == "trump":
        return state._replace(trump=event["suit"])
    if kind == "score":
        return state._replace(scores=tuple(event["scores"]), last_hand=_summary(event))
    if kind == "deal":
        hands = tuple(tuple(h) for h in event["hands"])
        return state._replace(
            hand_no=event["hand"],
            dealer=event["dealer"],
            hands=hands,
            in_play=frozenset(c for h in hands for c in h),
            phase="bidding",
            bids=(),
            pitcher=None,
            bid=0,
            trump=None,
            leader=(event["dealer"] + 1) % len(hands),
            trick=(),
            tricks=(),
        )
    if kind == "end":
        return state._replace(phase="over", winners=tuple(event["winners"]))
    if kind == "setup":
        config = event["config"]
        return State(
            config=config, players=config["players"], seed=event["seed"], scores=(0,) * config["players"]
        )
    raise ValueError(f"unknown pitch event type {kind!r}")


def _summary(score: dict[str, Any]) -> dict[str, Any]:
    """A hand's score event without its type, copied one level down so no caller shares its lists."""
    return {k: v.copy() if isinstance(v, (dict, list)) else v for k, v in score.items() if k != "type"}


def _without(hands: tuple[tuple[str, ...], ...], seat: int, card: str) -> tuple[tuple[str, ...], ...]:
    hand = hands[seat]
    i = hand.index(card)
    return (*hands[:seat], hand[:i] + hand[i + 1 :], *hands[seat + 1 :])


def replay(events: list[Event]) -> State:
    state = State()
    for event in events:
        state = apply(state, event)
    return state


# --------------------------------------------------------------------------- whose turn, what is legal


def high_bid(state: State) -> tuple[int, int | None]:
    """The current high bid and who holds it (the latest bidder at that height: a steal takes it)."""
    best, holder = 0, None
    for seat, amount in state.bids:
        if amount and amount >= best:
            best, holder = amount, seat
    return best, holder


def to_act(state: State) -> list[int]:
    if state.phase == "bidding":
        return [(state.dealer + 1 + len(state.bids)) % state.players]
    if state.phase == "play":
        if not state.trick:
            return [state.leader]
        return [(state.trick[-1][0] + 1) % state.players]
    return []


def legal_actions(state: State, seat: int) -> list[Action]:
    if type(seat) is not int or seat not in to_act(state):
        return []
    hand = state.hands[seat]
    if state.phase == "play":
        return [{"type": "play", "card": c} for c in playable(hand, state.trick, state.trump)]
    high, _holder = high_bid(state)
    dealer = seat == state.dealer
    actions: list[Action] = [] if dealer and high == 0 else [{"type": "pass"}]
    lowest = (2 if high == 0 else high) if dealer else high + 1
    actions += [{"type": "bid", "amount": a} for a in range(max(lowest, 1), 4)]
    actions += [{"type": "pitch", "card": c} for c in hand]
    return actions


def playable(hand: Sequence[str], trick: Sequence[Play], trump: str | None) -> list[str]:
    """Any card to lead; holding the suit led, that suit or a trump; otherwise any card."""
    if not trick:
        return list(hand)
    led = SUIT_OF[trick[0][1]]
    if any(SUIT_OF[c] == led for c in hand):
        return [c for c in hand if SUIT_OF[c] == led or SUIT_OF[c] == trump]
    return list(hand)


def decide(state: State, seat: int, action: Action) -> list[Event]:
    if type(seat) is not int or not 0 <= seat < state.players:
        raise IllegalAction("bad_seat", _("There is no such seat at this table."))
    kind = _check_shape(action)
    if state.phase == "over":
        raise IllegalAction("game_over", _("The game is over."))
    turn = to_act(state)
    if seat not in turn:
        raise IllegalAction("not_your_turn", _("It is not your turn: seat {seat} is to act."), seat=turn[0])
    if kind == "play" and state.phase != "play":
        raise IllegalAction("still_bidding", _("The bidding is not over: pass, bid or pitch a card."))
    if kind != "play" and state.phase != "bidding":
        raise IllegalAction("bidding_over", _("The bidding is over: play a card."))
    if kind == "pass":
        _check_pass(state, seat)
    elif kind == "bid":
        _check_bid(state, seat, action["amount"])
    else:
        _check_card(state, seat, action["card"], kind)
    if kind == "play":
        return _play_events(state, seat, action["card"])
    if kind == "pitch":
        card = action["card"]
        return [{"type": "pitch", "seat": seat, "card": card}, {"type": "trump", "suit": SUIT_OF[card]}]
    event: Event = {"type": "pass", "seat": seat}
    if kind == "bid":
        high, _holder = high_bid(state)
        event = {
            "type": "bid",
            "seat": seat,
            "amount": action["amount"],
            "steal": seat == state.dealer and action["amount"] == high,
        }
    if seat != state.dealer:
        return [event]
    high, holder = high_bid(apply(state, event))
    return [event, {"type": "pitcher", "seat": holder, "bid": high}]


def _check_shape(action: Any) -> str:
    if not isinstance(action, dict):
        raise IllegalAction("bad_action", _("An action must be a set of named fields with a type."))
    kind = action.get("type")
    if not isinstance(kind, str) or kind not in _ACTION_FIELDS:
        raise IllegalAction("unknown_action", _("Pitch has no action called {kind}."), kind=str(kind)[:20])
    wanted = _ACTION_FIELDS[kind]
    missing = sorted(wanted - set(action))
    if missing:
        raise IllegalAction("missing_field", _("This action needs a {field}."), field=missing[0])
    extra = sorted(str(k)[:20] for k in action if k not in wanted)
    if extra:
        raise IllegalAction("unexpected_field", _("This action has no field called {field}."), field=extra[0])
    if "amount" in action and type(action["amount"]) is not int:
        raise IllegalAction("bad_amount", _("A bid is a whole number from 1 to 3."))
    if "card" in action and (not isinstance(action["card"], str) or action["card"] not in SUIT_OF):
        raise IllegalAction("bad_card", _("That is not a card: write cards like 10H, QS or AD."))
    return kind


def _check_pass(state: State, seat: int) -> None:
    if seat == state.dealer and high_bid(state)[0] == 0:
        raise IllegalAction("dealer_must_bid", _("Everybody passed: as the dealer you must bid at least 2."))


def _check_bid(state: State, seat: int, amount: int) -> None:
    if amount == 4:
        raise IllegalAction("pitch_to_bid_four", _("A bid of 4 is made by pitching a card: play it face up."))
    if not 1 <= amount <= 3:
        raise IllegalAction("bad_amount", _("A bid is a whole number from 1 to 3."))
    high, _holder = high_bid(state)
    if seat == state.dealer:
        if high == 0 and amount < 2:
            raise IllegalAction(
                "dealer_must_bid", _("Everybody passed: as the dealer you must bid at least 2.")
            )
        if amount < high:
            raise IllegalAction("bid_too_low", _("The dealer may steal at {high} or bid higher."), high=high)
    elif amount <= high:
        raise IllegalAction("bid_too_low", _("Your bid must be higher than {high}."), high=high)


def _check_card(state: State, seat: int, card: str, kind: str) -> None:
    hand = state.hands[seat]
    if card not in hand:
        raise IllegalAction("card_not_in_hand", _("You do not hold {card}."), card=card)
    if kind == "play" and card not in playable(hand, state.trick, state.trump):
        led = SUIT_OF[state.trick[0][1]]
        raise IllegalAction(
            "must_follow_suit",
            _("You must follow suit or play a trump: you hold a {suit}."),
            suit=SUIT_NAMES[led],
        )


def _play_events(state: State, seat: int, card: str) -> list[Event]:
    events: list[Event] = [{"type": "play", "seat": seat, "card": card}]
    if state.trump is None:
        events.append({"type": "trump", "suit": SUIT_OF[card]})
    if len(state.trick) + 1 < state.players:
        return events
    trump = state.trump or SUIT_OF[card]
    events.append({"type": "trick", "winner": trick_winner((*state.trick, (seat, card)), trump)})
    if len(state.tricks) + 1 < TRICKS:
        return events
    after = state
    for event in events:
        after = apply(after, event)
    score = _score_event(after)
    events.append(score)
    pitcher_side = side_of(state.config, score["pitcher"])
    won = [s for s in range(state.players) if side_of(state.config, s) == pitcher_side]
    limit = state.config["max_hands"]
    if score["scores"][score["pitcher"]] >= state.config["target"]:
        events.append({"type": "end", "reason": "target", "winners": won})
    elif limit is not None and state.hand_no >= limit:
        best = max(score["scores"])
        leaders = [s for s, points in enumerate(score["scores"]) if points == best]
        events.append({"type": "end", "reason": "hand_limit", "winners": leaders})
    else:
        events.append(_deal_event(state.config, state.seed, state.hand_no + 1))
    return events


def _score_event(state: State) -> Event:
    """The points of a finished hand, the set-back of a pitcher who fell short, and the new scores."""
    config, pitcher, trump = state.config, state.pitcher, state.trump
    assert pitcher is not None and trump is not None
    teams = sides(config)
    captured: list[list[str]] = [[] for _ in teams]
    for trick, winner in state.tricks:
        captured[side_of(config, winner)].extend(card for _seat, card in trick)
    awards, game_points = hand_awards(captured, trump)
    points = [0] * len(teams)
    for who in awards.values():
        if who is not None:
            points[who] += 1
    pitcher_side = side_of(config, pitcher)
    made = points[pitcher_side] >= state.bid
    change = [p if s != pitcher_side or made else -state.bid for s, p in enumerate(points)]
    changes = [change[side_of(config, s)] for s in range(state.players)]
    return {
        "type": "score",
        "hand": state.hand_no,
        "pitcher": pitcher,
        "bid": state.bid,
        "trump": trump,
        "awards": awards,
        "game_points": game_points,
        "points": points,
        "made": made,
        "changes": changes,
        "scores": [score + c for score, c in zip(state.scores, changes, strict=True)],
    }


# --------------------------------------------------------------------------- what each seat may see


def view(state: State, seat: int | None) -> View:
    if seat is not None and (type(seat) is not int or not 0 <= seat < state.players):
        raise IllegalAction("bad_seat", _("There is no such seat at this table."))
    config = state.config
    high, holder = high_bid(state)
    played = [t for t, _w in state.tricks] + ([state.trick] if state.trick else [])
    found = voids(state.players, state.trump, played)
    captured: list[list[str]] = [[] for _ in range(state.players)]
    for trick, winner in state.tricks:
        captured[winner].extend(card for _seat, card in trick)
    return {
        "game": NAME,
        "players": state.players,
        "seat": seat,
        "config": {k: v for k, v in config.items() if k != "deck"},
        "teams": sides(config) if config["partnerships"] else None,
        "hand": state.hand_no,
        "dealer": state.dealer,
        "phase": state.phase,
        "to_act": to_act(state),
        "finished": state.phase == "over",
        "scores": list(state.scores),
        "cards": None if seat is None else list(state.hands[seat]) if state.hands else [],
        "hand_counts": [len(h) for h in state.hands],
        "bids": [{"seat": s, "bid": a} for s, a in state.bids],
        "high_bid": high,
        "high_bidder": holder,
        "pitcher": state.pitcher,
        "bid": state.bid,
        "trump": state.trump,
        "leader": state.leader,
        "trick": [{"seat": s, "card": c} for s, c in state.trick],
        "tricks": [
            {"leader": t[0][0], "cards": [{"seat": s, "card": c} for s, c in t], "winner": w}
            for t, w in state.tricks
        ],
        "captured": captured,
        "voids": [sorted(v) for v in found],
        "last_hand": _summary(state.last_hand) if state.last_hand else None,
        "winners": list(state.winners) if state.phase == "over" else None,
    }


def reveal(state: State) -> View:
    """Everything an arbiter may see: every hand. Not the seed, and not the undealt cards (rules page)."""
    return {**view(state, None), "hands": [list(h) for h in state.hands]}


def hidden_from(state: State, seat: int | None) -> list[str]:
    hidden = [c for c in DECK if c not in state.in_play]
    for s, hand in enumerate(state.hands):
        if s != seat:
            hidden.extend(hand)
    return hidden


def components(state: State) -> list[str]:
    cards = [c for h in state.hands for c in h]
    cards += [c for _s, c in state.trick]
    cards += [c for t, _w in state.tricks for _s, c in t]
    cards += [c for c in DECK if c not in state.in_play]
    return cards


def outcome(state: State) -> dict[str, Any] | None:
    if state.phase != "over":
        return None
    winners = set(state.winners)
    places = []
    for s, score in enumerate(state.scores):
        if s in winners:
            places.append(1)
        else:
            better = sum(1 for o, other in enumerate(state.scores) if o not in winners and other > score)
            places.append(len(winners) + 1 + better)
    return {
        "winners": sorted(winners),
        "places": places,
        "scores": list(state.scores),
        "score_scale": 1,
        "teams": sides(state.config) if state.config["partnerships"] else None,
        "hands": state.hand_no,
    }


# --------------------------------------------------------------------------- sampling for bots


def determinize(view: View, rng: random.Random) -> State:
    """A full state that agrees with ``view``: the unseen cards dealt at random, respecting known voids."""
    config = validate_config(view["config"])
    n: int = config["players"]
    seat = view["seat"]
    own = tuple(view["cards"] or ())
    tricks: tuple[tuple[Trick, int], ...] = tuple(
        (tuple((p["seat"], p["card"]) for p in t["cards"]), t["winner"]) for t in view["tricks"]
    )
    trick: Trick = tuple((p["seat"], p["card"]) for p in view["trick"])
    played = [c for t, _w in tricks for _s, c in t] + [c for _s, c in trick]
    known = set(own) | set(played)
    unseen = [c for c in DECK if c not in known]
    rng.shuffle(unseen)
    wanted = [0 if s == seat else view["hand_counts"][s] for s in range(n)]
    dealt = deal_unseen(unseen, wanted, [set(v) for v in view["voids"]])
    hands = tuple(own if s == seat else tuple(sort_cards(dealt[s])) for s in range(n))
    return State(
        config=config,
        players=n,
        seed=rng.randrange(2**62),
        hand_no=view["hand"],
        dealer=view["dealer"],
        hands=hands,
        in_play=frozenset(known.union(*hands)),
        phase=view["phase"],
        bids=tuple((b["seat"], b["bid"]) for b in view["bids"]),
        pitcher=view["pitcher"],
        bid=view["bid"],
        trump=view["trump"],
        leader=view["leader"],
        trick=trick,
        tricks=tricks,
        scores=tuple(view["scores"]),
        last_hand=_summary(view["last_hand"]) if view["last_hand"] else None,
        winners=tuple(view["winners"] or ()),
    )


def deal_unseen(
    cards: Sequence[str], wanted: Sequence[int], void_suits: Sequence[set[str]]
) -> list[list[str]]:
    """Give ``wanted[s]`` of ``cards`` to each seat s, never a card of a suit s is void in.

    A quick pass deals the most constrained seats first; when it paints itself into a
    corner, an augmenting-path matching finds an assignment (one always exists: the true deal).
    """
    order = sorted(range(len(wanted)), key=lambda s: -len(void_suits[s]))
    pool = list(cards)
    hands: list[list[str]] = [[] for _ in wanted]
    for s in order:
        need = wanted[s]
        if not need:
            continue
        ok = [c for c in pool if SUIT_OF[c] not in void_suits[s]][:need]
        if len(ok) < need:
            return _match(cards, wanted, void_suits)
        hands[s] = ok
        taken = set(ok)
        pool = [c for c in pool if c not in taken]
    return hands


def _match(cards: Sequence[str], wanted: Sequence[int], void_suits: Sequence[set[str]]) -> list[list[str]]:
    slots = [s for s, k in enumerate(wanted) for _ in range(k)]
    owner: dict[str, int] = {}  # card -> slot index

    def augment(slot: int, seen: set[str]) -> bool:
        for card in cards:
            if card in seen or SUIT_OF[card] in void_suits[slots[slot]]:
                continue
            seen.add(card)
            if card not in owner or augment(owner[card], seen):
                owner[card] = slot
                return True
        return False

    for slot in range(len(slots)):
        if not augment(slot, set()):
            raise ValueError("no deal agrees with these voids")
    hands: list[list[str]] = [[] for _ in wanted]
    for card, slot in owner.items():
        hands[slots[slot]].append(card)
    return hands
