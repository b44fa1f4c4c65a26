"""A client written only from the seed 001 document: its framing, message types and field
names, nothing from duskfall. Usage: ``python seed_client.py PORT SEED [--answer-all]``.

Exit status 0 once GAME_OVER arrived, 1 if the connection closed before.
With ``--answer-all`` it answers every ACTION_REQUEST, even state updates (empty
``valid_actions``), with whatever it can come up with, as the document's skeleton would.
"""

import json
import random
import socket
import sys

ACTION_FOR_KEY = {
    "vote": "VOTE",
    "kill": "KILL",
    "don_check": "DON_CHECK",
    "sheriff_check": "SHERIFF_CHECK",
}


class SeedClient:
    def __init__(self, port, seed, answer_all):
        self.socket = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.socket.connect(("127.0.0.1", port))
        self.player_id = None
        self.rng = random.Random(seed)
        self.answer_all = answer_all
        self.winner = None

    def receive_messages(self):
        buffer = b""
        expected = None
        while True:
            chunk = self.socket.recv(4096)
            if not chunk:
                return
            buffer += chunk
            while True:
                if expected is None:
                    if len(buffer) < 8:
                        break
                    expected = int.from_bytes(buffer[:8], byteorder="big")
                    buffer = buffer[8:]
                if len(buffer) < expected:
                    break
                data, buffer = buffer[:expected], buffer[expected:]
                expected = None
                self.process_message(json.loads(data.decode("utf-8")))
                if self.winner is not None:
                    return

    def process_message(self, message):
        if message["type"] == "ACTION_REQUEST":
            self.player_id = message["player_id"]
            if message["valid_actions"] or self.answer_all:
                self.send_action(self.determine_action(message))
        elif message["type"] == "GAME_EVENT":
            if message["event"] == "GAME_OVER":
                self.winner = message["winner"]
        elif message["type"] == "ERROR":
            print("Error from server:", message["message"], file=sys.stderr)

    def determine_action(self, request):
        valid = request["valid_actions"]
        observation = request["observation"]
        if request["phase"] == "DECLARATION":
            nominees = valid.get("nomination", [-1])
            choice = self.rng.choice(nominees)
            return {
                "type": "DECLARATION",
                "declaration": [self.rng.randint(-3, 3) for _ in range(10)],
                "sheriff_claims": [[0] * 10 for _ in range(10)],
                "nomination_policy": {} if choice == -1 else {str(choice): 1.0},
            }
        if "eliminate_all" in valid:
            return {"type": "ELIMINATE_ALL_VOTE", "vote": self.rng.random() < 0.5}
        for key, action_type in ACTION_FOR_KEY.items():
            if key in valid:
                return {"type": action_type, "target": self.rng.choice(valid[key])}
        others = [p for p in observation["alive_players"] if p != self.player_id]
        return {"type": "VOTE", "target": self.rng.choice(others)}

    def send_action(self, action):
        response = {"type": "ACTION_RESPONSE", "player_id": self.player_id, "action": action}
        data = json.dumps(response).encode("utf-8")
        self.socket.sendall(len(data).to_bytes(8, byteorder="big") + data)


if __name__ == "__main__":
    client = SeedClient(int(sys.argv[1]), int(sys.argv[2]), "--answer-all" in sys.argv)
    client.receive_messages()
    print("winner", client.winner)
    sys.exit(0 if client.winner is not None else 1)
