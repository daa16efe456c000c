"""Static files under content-hashed names once collected (`make serve` runs collectstatic), so WhiteNoise serves
them with far-future caching and a deploy never pairs a new page with an old stylesheet."""
from whitenoise.storage import CompressedManifestStaticFilesStorage


class StaticFiles(CompressedManifestStaticFilesStorage):
    def stored_name(self, name: str) -> str:
        # Before any collectstatic (`make run`, the tests) there is no manifest: each file keeps its own name and
        # WhiteNoise serves it from the app's folders.
        return super().stored_name(name) if self.hashed_files else name
