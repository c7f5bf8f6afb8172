"""Every tournament command, by name, for callers outside ``tournaments`` (pages, the API, commands).

Commands only: the modules of ``tournaments/commands/`` hold them by concern (registration, running,
results, real cards, progress) over one runner; reading a tournament is ``tournaments.projection``
(the fold, the rows), never through here. Code inside ``tournaments`` imports the command modules.
"""

from __future__ import annotations

from tournaments.commands.progress import advance, check_no_show
from tournaments.commands.real_cards import (
    confirm_result,
    dispute_result,
    enter_result,
    resolve_result,
    resolve_round,
    set_over_the_board,
    set_round_over_the_board,
)
from tournaments.commands.registration import (
    change_options,
    check_in,
    check_out,
    create,
    register,
    seed,
    withdraw,
)
from tournaments.commands.results import entrant_results, forfeit, on_game_finished, override, reconcile
from tournaments.commands.revoke import REFUSALS as UNDO_REFUSALS
from tournaments.commands.revoke import last_action, undo_last
from tournaments.commands.runner import check_organiser
from tournaments.commands.running import (
    EDITS,
    cancel_bye,
    edit_pairing,
    pause,
    pause_table,
    repair,
    request_bye,
    resume,
    resume_table,
    set_rounds,
    start,
    start_round,
)
from tournaments.options import game_config, validate_options

__all__ = [
    "EDITS",
    "UNDO_REFUSALS",
    "advance",
    "cancel_bye",
    "change_options",
    "check_in",
    "check_out",
    "check_no_show",
    "check_organiser",
    "confirm_result",
    "create",
    "dispute_result",
    "edit_pairing",
    "enter_result",
    "entrant_results",
    "forfeit",
    "game_config",
    "last_action",
    "on_game_finished",
    "override",
    "pause",
    "pause_table",
    "reconcile",
    "register",
    "repair",
    "request_bye",
    "resolve_result",
    "resolve_round",
    "resume",
    "resume_table",
    "seed",
    "set_over_the_board",
    "set_round_over_the_board",
    "set_rounds",
    "start",
    "start_round",
    "undo_last",
    "validate_options",
    "withdraw",
]
