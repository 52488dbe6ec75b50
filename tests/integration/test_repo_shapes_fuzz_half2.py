"""The second half of the hostile repository shapes fuzz (`test_repo_shapes_fuzz.py` says how the
`SHAPES` derandomized examples split): its own file, so that xdist's loadfile runs it on the other
worker beside the first half."""

from __future__ import annotations

from tests.integration.test_repo_shapes_fuzz import shapes_half

test_hostile_repository_shapes_end_in_a_verdict_or_one_line_half2 = shapes_half(1)
