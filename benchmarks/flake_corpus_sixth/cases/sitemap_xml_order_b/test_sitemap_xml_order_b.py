import pathlib

import sitemap_xml_order_b_sitemap as sitemap

GOLDEN = pathlib.Path(__file__).resolve().parent / "sitemap_xml_order_b_sitemap.xml"


def test_sitemap_matches_golden_file():
    menus = ["/about", "/blog", "/contact", "/blog", "/about"]
    assert sitemap.render(menus) == GOLDEN.read_text()
