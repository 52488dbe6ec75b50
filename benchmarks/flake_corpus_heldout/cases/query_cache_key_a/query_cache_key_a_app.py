def cache_key(endpoint, params):
    return endpoint + "?" + "&".join(sorted(set(params)))
