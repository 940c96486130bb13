# The HTTP/3 server of Benchmarks/run's h3 rows, an ASGI app for hypercorn (with aioquic): Debian
# 12's nginx has no QUIC. It serves what nginx serves the h2 rows, from memory: /small (13 bytes)
# and /1m (the file named by COURIER_H3_1M, read once at start). Anything else is a 404.
import os

SMALL = b"Hello, world\n"
with open(os.environ["COURIER_H3_1M"], "rb") as file:
    LARGE = file.read()
BODIES = {"/small": SMALL, "/1m": LARGE}
# Built once: the same head every time, so the server spends as little as it can per request.
HEADS = {
    path: [(b"content-type", b"application/octet-stream"), (b"content-length", str(len(body)).encode())]
    for path, body in BODIES.items()
}


async def app(scope, receive, send):
    if scope["type"] == "lifespan":
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await send({"type": "lifespan.shutdown.complete"})
                return
    body = BODIES.get(scope["path"])
    if body is None:
        await send({"type": "http.response.start", "status": 404, "headers": []})
        await send({"type": "http.response.body", "body": b""})
        return
    await send({"type": "http.response.start", "status": 200, "headers": HEADS[scope["path"]]})
    await send({"type": "http.response.body", "body": body})
