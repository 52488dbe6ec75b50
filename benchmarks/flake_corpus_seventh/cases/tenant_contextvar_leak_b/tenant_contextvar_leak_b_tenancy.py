"""Schema-per-tenant routing: the current tenant lives in a ContextVar set by the request middleware."""
import contextvars

current_tenant = contextvars.ContextVar("current_tenant", default="public")


def table_name(model):
    tenant = current_tenant.get()
    return model if tenant == "public" else f"{tenant}__{model}"


class tenant_scope:
    def __init__(self, tenant):
        self.tenant = tenant

    def __enter__(self):
        self._token = current_tenant.set(self.tenant)
        return self

    def __exit__(self, *exc):
        current_tenant.reset(self._token)
