"""sitemap.xml generation from the CMS page tree (pages may appear in several menus)."""

BASE = "https://shop.example.com"


def render(paths):
    urls = set(BASE + p for p in paths)
    lines = ['<?xml version="1.0" encoding="UTF-8"?>', '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">']
    lines += [f"  <url><loc>{u}</loc></url>" for u in urls]
    lines.append("</urlset>")
    return "\n".join(lines) + "\n"
