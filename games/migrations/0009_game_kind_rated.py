# A third kind of table: rated (no undo, redo, restart, hint or player's pause; the results count).

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0008_deal_group'),
    ]

    operations = [
        migrations.AlterField(
            model_name='game',
            name='kind',
            field=models.CharField(choices=[('casual', 'Casual'), ('rated', 'Rated'), ('tournament', 'Tournament'), ('log', 'Event stream')], default='casual', max_length=16),
        ),
    ]
