from queue_stop_flag_b_events import Consumer, produce


def test_consumer_processes_every_event():
    consumer = Consumer()
    consumer.start()
    produce(consumer, 50)
    consumer.stop()
    assert [e["seq"] for e in consumer.handled] == list(range(50))
