import map_tile_prerender_b_tiles as tiles

TILES = [(12, x, y) for x in range(2150, 2156) for y in range(1400, 1404)]


def test_all_tiles_prerendered():
    out = tiles.prerender(TILES, timeout=None)
    assert sorted(out) == sorted(TILES)
    assert all(len(png) > 100 for png in out.values())
