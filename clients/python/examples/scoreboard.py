"""A scoreboard: the live tables of the lobby, with each game's scores as spectators see them.

TABLEHALL_URL=https://tablehall.example python scoreboard.py
"""

import os

from tablehall_client import Client


def board(api: Client) -> list[str]:
    lines = []
    for table in api.lobby()["tables"]:
        state = api.state(table["id"])  # the spectators' view: no token needed
        names = " vs ".join(s["name"] for s in table["seats"])
        scores = state["view"].get("scores")
        lines.append(f"#{table['id']} {table['game']}: {names} — scores {scores}, move {state['seq']}")
    return lines


if __name__ == "__main__":
    print("\n".join(board(Client(os.environ.get("TABLEHALL_URL", "http://localhost:8000")))))
