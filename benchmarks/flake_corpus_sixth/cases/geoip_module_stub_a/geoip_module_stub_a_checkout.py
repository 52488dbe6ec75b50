def shipping_country(ip, default="US"):
    import geoip_module_stub_a_geo  # lazy: the GeoIP database is only loaded when a checkout needs it
    country = geoip_module_stub_a_geo.lookup(ip)
    return default if country == "ZZ" else country
