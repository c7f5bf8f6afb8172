from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0015_api_tokens"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="absent_after",
            field=models.PositiveIntegerField(default=120),
        ),
    ]
