"""Spell checker for the comment editor; the dictionary is loaded in the background at start-up."""
import itertools
import re
import threading

COMMON = ["the", "quick", "brown", "fox", "jumps", "over", "lazy", "dog", "order", "shipped", "today"]


def _dictionary_words():
    # stands in for reading the 80k-word hunspell file
    syllables = ["ka", "ro", "mi", "te", "lu", "sa", "pe", "do", "ni", "ve", "gu", "zo", "ba", "fi", "ho"]
    for parts in itertools.product(syllables, repeat=4):
        yield "".join(parts)
    yield from COMMON


class SpellChecker:
    def __init__(self):
        self.words = frozenset()
        self.ready = threading.Event()
        threading.Thread(target=self._load, daemon=True).start()

    def _load(self):
        words = set()
        for _ in range(2):  # two dictionaries: en_US base and the product glossary
            for w in _dictionary_words():
                words.add(w.strip().lower())
        self.words = frozenset(words)
        self.ready.set()

    def check(self, text):
        return [w for w in re.findall(r"[a-z]+", text.lower()) if w not in self.words]
