"""GitHub's documented size caps, and visible truncation to fit them."""

from __future__ import annotations

CHECK_RUN_TEXT_CHARS = 65_535  # output.summary and output.text, each
ANNOTATIONS_PER_REQUEST = 50  # a check-run create or update takes at most 50 annotations
STEP_SUMMARY_BYTES = 1024 * 1024  # GITHUB_STEP_SUMMARY, per step
COMMENT_BODY_CHARS = 65_536  # issue comment body


def truncate_visibly(text: str, limit: int, where: str = "the job summary") -> str:
    """`text` unchanged when it fits in `limit` characters, else a prefix plus a line saying how much
    was cut and where the whole text is, the result never longer than `limit`."""
    if limit < 1:
        raise ValueError("limit must be positive")
    if len(text) <= limit:
        return text
    keep = limit
    while True:
        notice = (
            f"\n\n**[truncated by lanegate: {len(text) - keep} characters omitted; see {where}]**\n"
        )
        if keep + len(notice) <= limit:
            return text[:keep] + notice
        if len(notice) > limit:  # too small a limit to explain the cut: cut anyway, never overflow
            return text[:limit]
        keep = limit - len(notice)


def truncate_utf8(text: str, limit_bytes: int, where: str = "the score-report artifact") -> str:
    """Like `truncate_visibly`, counted in UTF-8 bytes (the step summary cap is in bytes)."""
    data = text.encode("utf-8")
    if len(data) <= limit_bytes:
        return text
    notice = f"\n\n**[truncated by lanegate: {len(data)} bytes in all; see {where}]**\n"
    keep = max(0, limit_bytes - len(notice.encode("utf-8")))
    return data[:keep].decode("utf-8", errors="ignore") + notice


def batches(count: int, size: int = ANNOTATIONS_PER_REQUEST) -> list[range]:
    """Index ranges covering `count` items in chunks of `size`; at least one (possibly empty) chunk."""
    if count <= 0:
        return [range(0, 0)]
    return [range(start, min(start + size, count)) for start in range(0, count, size)]
