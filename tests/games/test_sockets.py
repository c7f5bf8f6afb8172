"""A socket whose client has left while the server was sending to it."""

from __future__ import annotations

import pytest
from autobahn.exception import Disconnected

from games.live.sockets import GuardedJsonConsumer


def consumer_sending_to(send):
    consumer = GuardedJsonConsumer()
    consumer.base_send = consumer.quiet(send)  # what __call__ gives Channels as the socket's send
    return consumer


async def test_a_send_to_a_client_that_left_ends_the_socket_quietly():
    async def gone(message):
        raise Disconnected("Attempt to send on a closed protocol")

    consumer = consumer_sending_to(gone)
    await consumer.send_json({"type": "state"})  # nothing reaches Daphne
    assert consumer._ended


async def test_a_send_to_a_client_still_there_is_sent():
    sent = []

    async def fine(message):
        sent.append(message)

    consumer = consumer_sending_to(fine)
    await consumer.send_json({"type": "state"})
    assert sent == [{"type": "websocket.send", "text": '{"type": "state"}'}]
    assert not consumer._ended


async def test_other_send_failures_still_raise():
    async def broken(message):
        raise RuntimeError("a bug")

    consumer = consumer_sending_to(broken)
    with pytest.raises(RuntimeError):
        await consumer.send_json({"type": "state"})
