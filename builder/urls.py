from django.contrib import admin
from django.urls import include, path

from . import api, collection, openapi, packs, presets, preview, table, views

api_patterns = [
    path("rulesets/", api.rulesets, name="api-rulesets"),
    path("rulesets/<slug:key>/items", api.items, name="api-items"),
    path("rulesets/<slug:key>/examples", api.examples, name="api-examples"),
    path("rulesets/<slug:key>/house-rules", api.house_rules, name="api-house-rules"),
    path("validate", api.validate, name="api-validate"),
    path("builds", api.create_build, name="api-builds"),
    path("builds/<str:ref>", api.build_detail, name="api-build"),
    path("builds/<str:share_id>/changes", api.build_changes, name="api-build-changes"),
    path("preview", api.preview, name="api-preview"),
    path("import/<slug:format>", api.import_other, name="api-import"),
    path("packs", api.packs, name="api-packs"),
    path("packs/<str:token>", api.packs, name="api-pack-publish"),
    path("openapi.json", openapi.schema, name="api-openapi"),
    path("docs/", openapi.reference, name="api-docs"),
]

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("new/<slug:ruleset>/<slug:kind>/", views.new_build, name="build-new"),
    path("import/", views.import_build, name="build-import"),
    path("c/<str:token>/", collection.join, name="collection-join"),
    path("collection/replace", collection.replace, name="collection-replace"),
    path("collection/remove", collection.remove, name="collection-remove"),
    path("collection/file", collection.download, name="collection-file"),
    path("collection/upload", collection.upload, name="collection-upload"),
    path("draft/", views.save_draft, name="draft"),
    path("roster/<slug:ruleset>/<slug:kind>/", views.roster_search, name="roster-search"),
    path("b/<str:token>/", views.edit_build, name="build-edit"),
    path("b/<str:token>/duplicate", views.duplicate_build, name="build-duplicate"),
    path("b/<str:token>/delete", views.delete_build, name="build-delete"),
    path("b/<str:token>/changes/", views.edit_changes, name="build-edit-changes"),
    path("b/<str:token>/upgrade", views.upgrade, name="build-upgrade"),
    path("b/<str:token>/packs", views.build_packs, name="build-packs"),
    path("s/<str:share_id>/", views.share, name="build-share"),
    path("s/<str:share_id>.json", views.share_json, name="build-json"),
    path("s/<str:share_id>.pdf", views.share_pdf, name="build-pdf"),
    path("s/<str:share_id>.txt", views.share_text, name="build-text"),
    path("s/<str:share_id>.md", views.share_markdown, name="build-markdown"),
    path("s/<str:share_id>/pdf-progress", views.share_pdf_progress, name="build-pdf-progress"),
    path("s/<str:share_id>/copy", views.fork, name="build-fork"),
    path("s/<str:share_id>/play", table.play, name="build-play"),
    path("t/<str:token>/", table.show, name="table"),
    path("t/<str:token>/live", table.live, name="table-live"),
    path("t/<str:token>/change", table.change_view, name="table-change"),
    path("t/<str:token>/undo", table.undo_view, name="table-undo"),
    path("t/<str:token>/reset", table.reset_view, name="table-reset"),
    path("s/<str:share_id>/export/<slug:format>", views.export_build, name="build-export"),
    path("s/<str:share_id>/changes/", views.share_changes, name="build-changes"),
    path("s/<str:share_id>/v/<int:version>/", views.share_version, name="build-version"),
    path("s/<str:share_id>/compare/", views.compare_versions, name="build-compare"),
    path("preview/<slug:ruleset>/<slug:kind>/", preview.panel, name="preview"),
    path("house-rules/<slug:ruleset>/presets", presets.create, name="house-rules-presets"),
    path("house-rules/<str:share_id>/", presets.show, name="house-rules-preset"),
    path("packs/", packs.upload, name="pack-upload"),
    path("packs/edit/<str:token>/", packs.edit, name="pack-edit"),
    path("packs/<str:share_id>/", packs.share, name="pack-share"),
    path("catalogue/", include("catalogue.urls")),
    path("api/", include(api_patterns)),
    path("admin/", admin.site.urls),
]

handler400 = "builder.errors.bad_request"
handler403 = "builder.errors.forbidden"
handler404 = "builder.errors.not_found"
handler500 = "builder.errors.server_error"
