"""ASGI entry point: HTTP through Django, WebSockets through Channels."""

import os
import threading

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "infra.settings")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.conf import settings  # noqa: E402

from games.computers.worker import resume_pending  # noqa: E402
from games.live.sockets import SessionReadGuard  # noqa: E402
from infra.heap import settle  # noqa: E402
from infra.limits import BodyLimit, RefuseNulSockets  # noqa: E402
from infra.metrics import SocketGauge  # noqa: E402
from infra.origin import SiteOriginValidator  # noqa: E402
from infra.reasons import name_statuses  # noqa: E402
from infra.routing import websocket_urlpatterns  # noqa: E402

name_statuses()  # Daphne wrote "429 Unknown Status"

if settings.JOBS == "inprocess" and os.environ.get("RESUME_TABLES", "1") == "1":
    # The embedded mode has no separate worker: this process plays the computer seats.
    threading.Thread(target=resume_pending, name="resume-tables", daemon=True).start()

application = ProtocolTypeRouter(
    {
        "http": BodyLimit(django_asgi_app),
        "websocket": SocketGauge(
            SiteOriginValidator(
                RefuseNulSockets(SessionReadGuard(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))))
            )
        ),
    }
)
settle()
