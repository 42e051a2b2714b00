"""Pages and API answers carry situations, names and advice: no browser or proxy may keep a copy."""

from django.conf import settings
from django.utils.cache import patch_cache_control


class NoStoreMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if not request.path.startswith("/" + settings.STATIC_URL.lstrip("/")) and "Cache-Control" not in response:
            patch_cache_control(response, no_store=True, private=True)
        return response
