"""A bot that plays one whole game against a computer player through Tablehall's public API.

TABLEHALL_URL=https://tablehall.example TABLEHALL_TOKEN=th_... python bot.py dominoes
"""

import os
import random
import sys
import time

from tablehall_client import ApiError, Client


def choose(state: dict, rng: random.Random) -> dict:
    """Your strategy goes here: this one plays a random legal action."""
    return rng.choice(state["legal_actions"])


def play(api: Client, game: str, level: str = "greedy", wait=time.sleep, seed: int = 0) -> dict:
    rng = random.Random(seed)
    table = api.create_table(game, seats=[{"kind": "me"}, {"kind": "computer", "level": level}])
    print(f"playing {game} at table {table.id}, seat {table.seat}")
    while True:
        state = api.state(table.id, seat=table.seat)
        if state["finished"]:
            break
        if table.seat not in state["to_act"]:
            wait(0.5)  # the computer is thinking
            continue
        try:  # no expected_seq: played on the table as it is now, if still legal for us
            api.act(table.id, choose(state, rng), seat=table.seat)
        except ApiError as refused:  # the computer moved first and our move no longer fits: look again
            print("refused:", refused.code)
    outcome = state["outcome"]
    print("places:", outcome["places"], "scores:", outcome["scores"])
    history = api.history(table.id, perspective=table.seat)
    print(f"{len(history['events'])} events in the hand history")
    return outcome


if __name__ == "__main__":
    client = Client(os.environ.get("TABLEHALL_URL", "http://localhost:8000"), os.environ["TABLEHALL_TOKEN"])
    play(client, sys.argv[1] if len(sys.argv) > 1 else "dominoes")
