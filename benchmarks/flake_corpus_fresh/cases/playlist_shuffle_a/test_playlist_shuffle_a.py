from playlist_shuffle_a_player import next_queue

TRACKS = [f"track-{i:02d}" for i in range(8)]


def test_next_queue_does_not_repeat_last_track():
    queue = next_queue(TRACKS, last_played="track-03")
    assert sorted(queue) == TRACKS
    assert queue[0] != "track-03"
