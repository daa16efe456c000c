from django.contrib import admin

from .models import Item, Pack, Ruleset


@admin.register(Ruleset)
class RulesetAdmin(admin.ModelAdmin):
    list_display = ("name", "key", "tagline")


class ItemInline(admin.TabularInline):
    model = Item
    fields = ("category", "key", "name")
    readonly_fields = fields
    extra = 0
    can_delete = False


@admin.register(Pack)
class PackAdmin(admin.ModelAdmin):
    list_display = ("name", "version", "ruleset", "source", "loaded_at")
    list_filter = ("ruleset", "source")
    readonly_fields = ("content_hash", "loaded_at")
    inlines = [ItemInline]


@admin.register(Item)
class ItemAdmin(admin.ModelAdmin):
    list_display = ("name", "key", "category", "pack")
    list_filter = ("pack__ruleset", "pack", "category")
    search_fields = ("name", "key")
