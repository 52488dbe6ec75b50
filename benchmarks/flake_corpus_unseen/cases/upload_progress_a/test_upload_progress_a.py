import random

from upload_progress_a_upload import Upload, random_chunks, upload_file


def test_progress_reaches_100_percent():
    total = random.randint(200_000, 5_000_000)
    up = upload_file(Upload(total), random_chunks(total))
    assert up.done == total
    assert up.finished, up.progress
