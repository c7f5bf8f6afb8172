"""The replay app's tables as migrations 0001-0002 left them, in one migration (squashed 2026-12-07).

A database that applied both counts this one as applied (``replaces``).
"""

import django.db.models.deletion
import django.utils.timezone
import replay.models
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    replaces = [
        ('replay', '0001_rooms_comments_reviews'),
        ('replay', '0002_room_members'),
    ]

    dependencies = [
        ('games', '0001_squashed_0018_club_only_tables'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='Review',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('status', models.CharField(choices=[('queued', 'Waiting'), ('running', 'Reviewing'), ('done', 'Ready'), ('failed', 'Failed')], default='queued', max_length=16)),
                ('engine_version', models.PositiveIntegerField(default=0)),
                ('settings', models.JSONField(default=dict)),
                ('decisions', models.JSONField(default=list)),
                ('summary', models.JSONField(default=dict)),
                ('error', models.TextField(blank=True, default='')),
                ('requested_at', models.DateTimeField(default=django.utils.timezone.now)),
                ('finished_at', models.DateTimeField(blank=True, null=True)),
                ('game', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='review', to='games.game')),
            ],
        ),
        migrations.CreateModel(
            name='Room',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('key', models.CharField(default=replay.models.room_key, editable=False, max_length=16, unique=True)),
                ('seq', models.PositiveIntegerField(default=0)),
                ('perspective', models.CharField(default='public', max_length=8)),
                ('created_at', models.DateTimeField(default=django.utils.timezone.now)),
                ('created_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('driver', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('game', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='replay_rooms', to='games.game')),
            ],
        ),
        migrations.CreateModel(
            name='Annotation',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('seq', models.PositiveIntegerField()),
                ('text', models.TextField(max_length=1000)),
                ('created_at', models.DateTimeField(default=django.utils.timezone.now)),
                ('hidden', models.BooleanField(default=False)),
                ('hidden_at', models.DateTimeField(blank=True, null=True)),
                ('author', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='annotations', to=settings.AUTH_USER_MODEL)),
                ('game', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='annotations', to='games.game')),
                ('hidden_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'ordering': ['game', 'seq', 'created_at', 'pk'],
                'indexes': [models.Index(fields=['game', 'seq'], name='replay_anno_game_id_22cf3d_idx')],
            },
        ),
        migrations.CreateModel(
            name='RoomMember',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('joined_at', models.DateTimeField(default=django.utils.timezone.now)),
                ('room', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='members', to='replay.room')),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'ordering': ['room', 'joined_at', 'pk'],
                'constraints': [models.UniqueConstraint(fields=('room', 'user'), name='room_member_unique')],
            },
        ),
    ]
