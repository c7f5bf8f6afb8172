"""The staff's view of the chat: reported messages first (Django admin)."""

from __future__ import annotations

from django.contrib import admin

from chat.models import Message, Report


class ReportInline(admin.TabularInline):
    model = Report
    extra = 0
    readonly_fields = ("seat", "reporter", "created_at")


@admin.register(Report)
class ReportAdmin(admin.ModelAdmin):
    list_display = ("created_at", "game", "said", "speaker", "seat", "reporter", "handled")
    list_filter = ("handled",)
    list_editable = ("handled",)
    readonly_fields = ("message", "seat", "reporter", "created_at")
    ordering = ("handled", "-created_at")

    @admin.display(description="table")
    def game(self, report: Report) -> int:
        return report.message.game_id

    @admin.display(description="message")
    def said(self, report: Report) -> str:
        return str(report.message)

    @admin.display(description="said by")
    def speaker(self, report: Report) -> str:
        m = report.message
        return f"{m.name} (seat {m.seat + 1}{', user ' + str(m.author) if m.author_id else ''})"


@admin.register(Message)
class MessageAdmin(admin.ModelAdmin):
    list_display = ("created_at", "game_id", "seat", "name", "author", "phrase", "text")
    search_fields = ("text", "name")
    list_filter = ("phrase",)
    readonly_fields = ("game", "seat", "author", "name", "phrase", "text", "created_at")
    inlines = [ReportInline]
