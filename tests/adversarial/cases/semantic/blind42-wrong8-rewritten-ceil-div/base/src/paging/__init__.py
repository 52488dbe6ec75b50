from paging.arith import ceil_div, page_count

__all__ = ["ceil_div", "page_count"]
