"""Product catalogue export for the storefront CDN."""
import json


def export_catalog(products):
    return json.dumps({"products": products}, sort_keys=True, indent=1)
