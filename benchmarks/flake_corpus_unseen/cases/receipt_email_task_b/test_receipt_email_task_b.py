import asyncio

from receipt_email_task_b_orders import OrderService


def test_placing_order_emails_receipt():
    async def scenario():
        svc = OrderService()
        await svc.place("A-100", "ana@example.test", [("mug", 2), ("tea", 1)])
        await asyncio.sleep(0.04)  # give the background task time to send
        return svc

    svc = asyncio.run(scenario())
    assert [(e, o) for e, o, _ in svc.sent] == [("ana@example.test", "A-100")]
