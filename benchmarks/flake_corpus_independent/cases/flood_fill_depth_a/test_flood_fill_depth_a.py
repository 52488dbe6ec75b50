import random

W = H = 54


def random_map(p_open=0.62):
    return [[random.random() < p_open for _ in range(W)] for _ in range(H)]


def fill(grid, r, c, seen):
    if r < 0 or c < 0 or r >= H or c >= W or not grid[r][c] or (r, c) in seen:
        return 0
    seen.add((r, c))
    return 1 + sum(fill(grid, r + dr, c + dc, seen) for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0)))


def region_sizes(grid):
    seen, sizes = set(), []
    for r in range(H):
        for c in range(W):
            if grid[r][c] and (r, c) not in seen:
                sizes.append(fill(grid, r, c, seen))
    return sizes


def test_region_sizes_cover_open_cells():
    grid = random_map()
    assert sum(region_sizes(grid)) == sum(map(sum, grid))
