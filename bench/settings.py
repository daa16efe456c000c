"""The app's settings with bench/urls.py, so gunicorn serves the trivial baseline view beside the real pages."""
from builder.settings import *  # noqa: F401,F403

ROOT_URLCONF = "bench.urls"
