"""Computer seats get the number they are called by ("Computer 3 (Strong)", games/words/computers.py).

At a table a computer seat was always shown as its seat's number (from 1); at a tournament's table
it took its entrant's name, whose number is read back here ("Computer 3 (Strong)" in any of the
three languages, "Bot 3 (greedy)", "Greedy 3"); a name without one falls back to the seat's number.
"""

import re

from django.db import migrations, models

LEGACY = re.compile(
    r"^(?:computer|òdinatè|bot|random|greedy|strong|beginner|easy)\s+(\d{1,6})\s*(?:\(([^()]*)\))?$", re.I
)


def number_seats(apps, schema_editor):
    Seat = apps.get_model("games", "Seat")
    for seat in Seat.objects.exclude(bot_level="").select_related("game").iterator():
        found = LEGACY.match(seat.display_name.strip()) if seat.game.kind == "tournament" else None
        seat.bot_number = int(found.group(1)) if found else seat.number + 1
        seat.save(update_fields=["bot_number"])


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0011_invite"),
    ]

    operations = [
        migrations.AddField(
            model_name="seat",
            name="bot_number",
            field=models.PositiveIntegerField(blank=True, null=True),
        ),
        migrations.RunPython(number_seats, migrations.RunPython.noop),
    ]
