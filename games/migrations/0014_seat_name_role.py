"""Seats without a name of their own are called by a role and their number, in the reader's language.

A guest's seat and another player's seat on a pass-and-play device used to store their name in the
language of whoever made the table ("Envite 1", "Bisita 2", "Jwè 3"): a Tagalog lobby showed
"Envite 1" beside "Guest 1". Such names, in any of the three languages, and numbered as their seat,
become a role; ``display_name`` keeps the English name for logs and exports.
"""

import re

from django.db import migrations, models

# The names as the catalogues of the time wrote them (en, ht, tl).
ROLES = {
    "guest": ("Guest", "Envite", "Bisita"),
    "player": ("Player", "Jwè", "Manlalaro"),
}
ENGLISH = {"guest": "Guest", "player": "Player"}
NAME = re.compile(r"^(\w+)\s+(\d{1,3})$", re.U)


def name_roles(apps, schema_editor):
    Seat = apps.get_model("games", "Seat")
    rows = Seat.objects.filter(bot_level="", user__isnull=True, awaiting_player=False)
    for seat in rows.iterator():
        found = NAME.match(seat.display_name.strip())
        if not found or int(found.group(2)) != seat.number + 1:
            continue
        word = found.group(1).casefold()
        for role, words in ROLES.items():
            if word in {w.casefold() for w in words}:
                seat.name_role = role
                seat.display_name = f"{ENGLISH[role]} {seat.number + 1}"
                seat.save(update_fields=["name_role", "display_name"])
                break


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0013_lesson_kind"),
    ]

    operations = [
        migrations.AddField(
            model_name="seat",
            name="name_role",
            field=models.CharField(blank=True, default="", max_length=8),
        ),
        migrations.RunPython(name_roles, migrations.RunPython.noop),
    ]
