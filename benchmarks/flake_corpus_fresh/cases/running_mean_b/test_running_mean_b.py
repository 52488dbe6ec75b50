from running_mean_b_stats import StreamingMean, close_enough, readings


def test_streaming_mean_matches_batch_mean():
    xs = readings()
    m = StreamingMean()
    for x in xs:
        m.add(x)
    assert close_enough(m.mean, sum(xs) / len(xs))
