"""The tournaments app's tables as migrations 0001-0013 left them, in one migration (squashed 2026-12-07).

A database that applied all of 0001-0013 counts this one as applied (``replaces``); one that applied
only some of them must first be migrated with a release that still has them (docs/deploying.md).
Their data migrations (0006 computer numbers and rating keys, 0012 clocks folded from the logs, 0013
each club's join code) only rewrote rows written before them: a new database has nothing for them to do.
"""

import django.db.models.deletion
import tournaments.models
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    replaces = [
        ('tournaments', '0001_initial'),
        ('tournaments', '0002_round'),
        ('tournaments', '0003_director'),
        ('tournaments', '0004_ratinghistory_number'),
        ('tournaments', '0005_entry_name_rating_player'),
        ('tournaments', '0006_computer_numbers'),
        ('tournaments', '0007_over_the_board'),
        ('tournaments', '0008_ratinghistory_place'),
        ('tournaments', '0009_round_stale'),
        ('tournaments', '0010_match_stand_ins'),
        ('tournaments', '0011_matchgame_places'),
        ('tournaments', '0012_tournament_clock'),
        ('tournaments', '0013_club_members'),
    ]

    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='Match',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('round', models.PositiveIntegerField()),
                ('key', models.CharField(max_length=16)),
                ('entrants', models.JSONField(default=list)),
                ('result', models.JSONField(null=True)),
                ('computed', models.JSONField(null=True)),
                ('override_reason', models.TextField(blank=True, default='')),
                ('forfeit', models.JSONField(default=list)),
                ('stand_ins', models.JSONField(default=list)),
                ('board', models.JSONField(default=list)),
            ],
            options={
                'ordering': ['round', 'pk'],
            },
        ),
        migrations.CreateModel(
            name='Club',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name', models.CharField(max_length=100)),
                ('slug', models.SlugField(unique=True)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('join_code', models.CharField(max_length=32, null=True)),
                ('created_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
        ),
        # Made unique in a step of its own, as old 0013 did, so that the constraint has the name it has
        # in the databases that ran 0013 (tournaments_club_join_code_f4b832d6_uniq).
        migrations.AlterField(
            model_name='club',
            name='join_code',
            field=models.CharField(default=tournaments.models.new_join_code, max_length=32, unique=True),
        ),
        migrations.CreateModel(
            name='MatchGame',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('game_id', models.BigIntegerField(unique=True)),
                ('number', models.PositiveIntegerField()),
                ('seats', models.JSONField(default=list)),
                ('finished', models.BooleanField(default=False)),
                ('places', models.JSONField(null=True)),
                ('match', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='games', to='tournaments.match')),
            ],
            options={
                'ordering': ['number'],
            },
        ),
        migrations.CreateModel(
            name='Rating',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('player', models.CharField(max_length=160)),
                ('name', models.CharField(max_length=150)),
                ('game', models.CharField(max_length=32)),
                ('mu', models.FloatField()),
                ('sigma', models.FloatField()),
                ('games', models.PositiveIntegerField(default=0)),
                ('updated_at', models.DateTimeField(auto_now=True)),
                ('club', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='ratings', to='tournaments.club')),
            ],
        ),
        migrations.CreateModel(
            name='RatingHistory',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('game_id', models.BigIntegerField()),
                ('number', models.PositiveIntegerField(default=1)),
                ('mu', models.FloatField()),
                ('sigma', models.FloatField()),
                ('at', models.DateTimeField()),
                ('place', models.PositiveSmallIntegerField(blank=True, null=True)),
                ('sides', models.PositiveSmallIntegerField(blank=True, null=True)),
                ('rating', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='history', to='tournaments.rating')),
            ],
            options={
                'ordering': ['at', 'pk'],
            },
        ),
        migrations.CreateModel(
            name='Tournament',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('stream_id', models.BigIntegerField(unique=True)),
                ('name', models.CharField(max_length=120)),
                ('game', models.CharField(max_length=32)),
                ('format', models.CharField(max_length=32)),
                ('options', models.JSONField(default=dict)),
                ('status', models.CharField(choices=[('registration', 'Registration open'), ('running', 'Playing'), ('paused', 'Paused'), ('finished', 'Finished')], max_length=16)),
                ('round', models.PositiveIntegerField(default=0)),
                ('planned_rounds', models.PositiveIntegerField(null=True)),
                ('seq', models.PositiveIntegerField(default=0)),
                ('over_the_board', models.BooleanField(default=False)),
                ('board_rounds', models.JSONField(default=list)),
                ('clock', models.JSONField(default=dict)),
                ('club', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='tournaments', to='tournaments.club')),
                ('created_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
        ),
        migrations.CreateModel(
            name='Round',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('number', models.PositiveIntegerField()),
                ('started', models.BooleanField(default=False)),
                ('complete', models.BooleanField(default=False)),
                ('byes', models.JSONField(default=list)),
                ('half_byes', models.JSONField(default=list)),
                ('locked', models.JSONField(default=list)),
                ('over_the_board', models.BooleanField(default=False)),
                ('stale', models.BooleanField(default=False)),
                ('tournament', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='rounds', to='tournaments.tournament')),
            ],
            options={
                'ordering': ['number'],
            },
        ),
        migrations.AddField(
            model_name='match',
            name='tournament',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='matches', to='tournaments.tournament'),
        ),
        migrations.CreateModel(
            name='Entry',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('number', models.PositiveIntegerField()),
                ('name', models.CharField(max_length=150)),
                ('bot_level', models.CharField(blank=True, default='', max_length=16)),
                ('bot_number', models.PositiveIntegerField(blank=True, null=True)),
                ('members', models.JSONField(default=list)),
                ('checked_in', models.BooleanField(default=False)),
                ('withdrawn', models.BooleanField(default=False)),
                ('seed', models.PositiveIntegerField(null=True)),
                ('rank', models.PositiveIntegerField(null=True)),
                ('values', models.JSONField(default=dict)),
                ('bye_requests', models.JSONField(default=list)),
                ('user', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('tournament', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='entries', to='tournaments.tournament')),
            ],
            options={
                'ordering': ['rank', 'seed', 'number'],
            },
        ),
        migrations.CreateModel(
            name='Member',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('role', models.CharField(choices=[('member', 'Member'), ('organiser', 'Organiser')], default='member', max_length=16)),
                ('joined_at', models.DateTimeField(auto_now_add=True)),
                ('club', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='members', to='tournaments.club')),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='club_members', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'ordering': ['club', 'user__username'],
                'constraints': [models.UniqueConstraint(fields=('club', 'user'), name='club_member_unique')],
            },
        ),
        migrations.AddConstraint(
            model_name='rating',
            constraint=models.UniqueConstraint(fields=('player', 'game', 'club'), name='rating_unique'),
        ),
        migrations.AddConstraint(
            model_name='rating',
            constraint=models.UniqueConstraint(condition=models.Q(('club__isnull', True)), fields=('player', 'game'), name='rating_unique_global'),
        ),
        migrations.AddConstraint(
            model_name='ratinghistory',
            constraint=models.UniqueConstraint(fields=('rating', 'game_id', 'number'), name='rating_history_once'),
        ),
        migrations.AddConstraint(
            model_name='round',
            constraint=models.UniqueConstraint(fields=('tournament', 'number'), name='round_number_unique'),
        ),
        migrations.AddConstraint(
            model_name='match',
            constraint=models.UniqueConstraint(fields=('tournament', 'key'), name='match_key_unique'),
        ),
        migrations.AddConstraint(
            model_name='entry',
            constraint=models.UniqueConstraint(fields=('tournament', 'number'), name='entry_number_unique'),
        ),
    ]
