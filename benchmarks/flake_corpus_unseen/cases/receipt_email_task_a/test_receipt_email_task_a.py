import asyncio

from receipt_email_task_a_orders import OrderService


def test_placing_order_emails_receipt():
    async def scenario():
        svc = OrderService()
        await svc.place("A-100", "ana@example.test", [("mug", 2), ("tea", 1)])
        await svc.drain()
        return svc

    svc = asyncio.run(scenario())
    assert [(e, o) for e, o, _ in svc.sent] == [("ana@example.test", "A-100")]
