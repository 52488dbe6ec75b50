from concurrent.futures import ThreadPoolExecutor

import upload_shard_dir_race_a_store as store


def test_parallel_uploads_are_stored(tmp_path):
    blobs = [f"invoice-{i}.pdf".encode() * 50 for i in range(1500)]
    with ThreadPoolExecutor(8) as pool:
        paths = list(pool.map(lambda b: store.store(str(tmp_path), b), blobs))
    assert len(set(paths)) == 1500
