from django.contrib import admin

from .models import Build


@admin.register(Build)
class BuildAdmin(admin.ModelAdmin):
    list_display = ("name", "ruleset", "kind", "pack_ref", "legal", "version", "updated_at")
    list_filter = ("ruleset", "kind", "legal")
    search_fields = ("name",)
    readonly_fields = ("edit_token", "share_id", "version", "created_at", "updated_at")
