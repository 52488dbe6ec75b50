import search_backend_settings_reload_a_settings as settings


def backend_info():
    return {"backend": settings.SEARCH_BACKEND, "timeout": settings.SEARCH_TIMEOUT}
