from runs.runs import longest_run, rle_decode, rle_encode

__all__ = ["longest_run", "rle_decode", "rle_encode"]
