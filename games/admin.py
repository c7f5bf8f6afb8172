from django.contrib import admin

from games.models import Game, Seat


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["id", "engine", "status", "kind", "created_at"]
    list_filter = ["engine", "status", "kind"]
    inlines = [SeatInline]
