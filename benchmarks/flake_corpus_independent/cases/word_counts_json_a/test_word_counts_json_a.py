import json


def word_counts(words):
    counts = dict.fromkeys(set(words), 0)
    for w in words:
        counts[w] += 1
    return counts


def test_counts_json():
    assert json.dumps(word_counts(["red", "blue", "red"])) == '{"red": 2, "blue": 1}'
