def cache_key(endpoint, params):
    return endpoint + "?" + "&".join(set(params))
