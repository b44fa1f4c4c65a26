"""A client with a planted fault, for check-bot's own test: it plays every variant right
(random legal actions, reconnecting with its token), except for the fault planted:

* ``--break KIND``: at that decision kind it misspells the action's first field after ``type``;
* ``--delay SECONDS``: it thinks that long before each answer;
* ``--answer-updates``: it answers state updates too (without a request id, as it has none);
* ``--illegal-target``: it names seat 99 in every action with a target;
* ``--no-request-id``: its answers carry no ``request_id``;
* ``--crash``: it writes a traceback to standard error and exits 1 at its second request;
* ``--silent``: it answers nothing.

    python tests/kit/planted_bot.py [OPTIONS] HOST PORT
    python tests/kit/planted_bot.py [OPTIONS] ws://HOST:PORT/    (over WebSocket)
"""

from __future__ import annotations

import json
import os
import random
import socket
import sys
import time

SEED_KEYS = {
    "vote": "VOTE",
    "kill": "KILL",
    "don_check": "DON_CHECK",
    "sheriff_check": "SHERIFF_CHECK",
}
FIELDS = ("potion", "target", "says", "run", "withdraw", "claim")


def choose(valid: dict) -> dict:
    if "declaration" in valid:
        who = random.choice(valid["nomination"])
        return {
            "type": "DECLARATION",
            "declaration": [0] * 10,
            "nomination_policy": {str(who): 1.0} if who >= 0 else {},
        }
    if "eliminate_all" in valid:
        return {"type": "ELIMINATE_ALL_VOTE", "vote": random.random() < 0.5}
    if "type" not in valid:
        key = next(k for k in SEED_KEYS if k in valid)
        return {"type": SEED_KEYS[key], "target": random.choice(valid[key])}
    types = valid["type"]
    action = {"type": random.choice(types) if isinstance(types, list) else types}
    for field in FIELDS:
        options = valid.get(field)
        if isinstance(options, dict):
            chosen = next(v for v in action.values() if isinstance(v, str) and v in options)
            options = options[chosen]
        if isinstance(options, list):
            action[field] = random.choice(options)
        elif options == "text":
            action[field] = "Nothing to add."
    if action.get("potion") == "PASS":
        action.pop("target", None)
    return action


def planted(action: dict) -> dict:
    """The fault: the first field after ``type`` misspelt (``target`` -> ``targte``)."""
    out = {}
    for index, (name, value) in enumerate(action.items()):
        out[name[:-2] + name[-1] + name[-2] if index == 1 else name] = value
    return out


def send(sock: socket.socket, message: dict) -> None:
    data = json.dumps(message).encode()
    sock.sendall(len(data).to_bytes(8, "big") + data)


def frames(sock: socket.socket):
    buffer = b""
    while chunk := sock.recv(65536):
        buffer += chunk
        while len(buffer) >= 8 and len(buffer) >= 8 + int.from_bytes(buffer[:8], "big"):
            size = int.from_bytes(buffer[:8], "big")
            yield json.loads(buffer[8 : 8 + size])
            buffer = buffer[8 + size :]


def answer(message: dict, faults: dict) -> dict:
    """The ACTION_RESPONSE to a request, with the planted fault."""
    action = choose(message["valid_actions"])
    if message["phase"] == faults.get("--break"):
        action = planted(action)
    if "--illegal-target" in faults and "target" in action:
        action["target"] = 99
    response = {"type": "ACTION_RESPONSE", "request_id": message["request_id"], "action": action}
    if "--no-request-id" in faults:
        del response["request_id"]
    return response


def options(argv: list[str]) -> tuple[dict, list[str]]:
    faults: dict = {}
    while argv and argv[0].startswith("--"):
        if argv[0] in ("--break", "--delay"):
            faults[argv[0]], argv = argv[1], argv[2:]
        else:
            faults[argv[0]], argv = True, argv[1:]
    return faults, argv


class Ws:
    """A WebSocket link with the socket's interface used here (one JSON message per message)."""

    def __init__(self, url: str) -> None:
        from websockets.sync.client import connect

        self.ws = connect(url)

    def send(self, message: dict) -> None:
        self.ws.send(json.dumps(message))

    def frames(self):
        from websockets.exceptions import ConnectionClosed

        try:
            for text in self.ws:
                yield json.loads(text)
        except ConnectionClosed:
            return

    def close(self) -> None:
        self.ws.close()


class Tcp:
    def __init__(self, host: str, port: int) -> None:
        self.sock = socket.create_connection((host, port))

    def send(self, message: dict) -> None:
        send(self.sock, message)

    def frames(self):
        return frames(self.sock)

    def close(self) -> None:
        self.sock.close()


def main(argv: list[str]) -> int:
    faults, argv = options(argv)
    delay = float(faults.get("--delay", 0))
    asked = 0
    token, last_seq, over = os.environ.get("DUSKFALL_SEAT_TOKEN"), None, False
    for _ in range(5):
        try:
            link = Ws(argv[0]) if argv[0].startswith("ws://") else Tcp(argv[0], int(argv[1]))
        except OSError:
            time.sleep(0.2)
            continue
        hello = {"type": "HELLO"}
        if token:
            hello["token"] = token
            if last_seq is not None:
                hello["last_seq"] = last_seq
        link.send(hello)
        try:
            for message in link.frames():
                if message["type"] == "HELLO":
                    token = message["token"]
                elif message["type"] == "ACTION_REQUEST" and message["valid_actions"]:
                    asked += 1
                    if "--crash" in faults and asked == 2:
                        print("Traceback (most recent call last):", file=sys.stderr)
                        print("KeyError: 'valid_actoins'", file=sys.stderr)
                        return 1
                    time.sleep(delay)
                    if "--silent" not in faults:
                        link.send(answer(message, faults))
                elif message["type"] == "ACTION_REQUEST" and "--answer-updates" in faults:
                    link.send({"type": "ACTION_RESPONSE", "action": {"type": message["phase"]}})
                elif message["type"] == "GAME_EVENT":
                    last_seq = message.get("seq", last_seq)
                    if message["event"] == "GAME_OVER":
                        over = True
        except OSError:
            pass
        link.close()
        if over or token is None:
            break
        time.sleep(0.2)
    return 0 if over else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
