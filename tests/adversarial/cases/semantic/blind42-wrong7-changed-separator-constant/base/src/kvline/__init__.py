from kvline.codec import dump_pairs, load_pairs

__all__ = ["dump_pairs", "load_pairs"]
