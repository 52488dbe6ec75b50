"""Building the OAuth token request."""


def scope_param(scopes):
    return " ".join(dict.fromkeys(scopes))


def token_request(client_id, scopes):
    return {"grant_type": "client_credentials", "client_id": client_id, "scope": scope_param(scopes)}
