"""A duskfall bot with no socket code: JSON lines on standard input and output.

    duskfall run-bot --port 8765 -- python examples/stdio/bot.py

Each line in is one request (the server's ACTION_REQUEST, with "events" since the last line and,
after a refusal, "error"); each line out is one action. It plays random legal actions in any
variant; the last line in has "type": "GAME_OVER". Python 3 standard library only.
"""

import json
import random
import sys

SEED_KEYS = {
    "vote": "VOTE",
    "kill": "KILL",
    "don_check": "DON_CHECK",
    "sheriff_check": "SHERIFF_CHECK",
}
# In werewolf and mafia, valid_actions spells the action: "type", then one key per field.
FIELDS = ("potion", "target", "says", "run", "withdraw", "claim")


def choose(valid):
    if "declaration" in valid:
        who = random.choice(valid["nomination"])
        return {
            "type": "DECLARATION",
            "declaration": [random.randint(-3, 3) for _ in range(10)],
            "nomination_policy": {str(who): 1.0} if who >= 0 else {},
        }
    if "eliminate_all" in valid:
        return {"type": "ELIMINATE_ALL_VOTE", "vote": random.random() < 0.5}
    if "type" not in valid:
        key = next(k for k in SEED_KEYS if k in valid)
        return {"type": SEED_KEYS[key], "target": random.choice(valid[key])}
    kinds = valid["type"]
    action = {"type": random.choice(kinds) if isinstance(kinds, list) else kinds}
    for field in FIELDS:
        if field not in valid:
            continue
        options = valid[field]
        if isinstance(options, dict):  # options per value of a field chosen before
            chosen = next((v for v in action.values() if isinstance(v, str) and v in options), None)
            options = options.get(chosen)
        if isinstance(options, list):
            action[field] = random.choice(options)
        elif options == "text":
            action[field] = "I have nothing to hide."
    if action.get("potion") == "PASS":
        action.pop("target", None)
    return action


for line in sys.stdin:
    request = json.loads(line)
    if request.get("type") == "GAME_OVER":
        print(f"game over: {request.get('winner')}", file=sys.stderr)
        break
    print(json.dumps(choose(request["valid_actions"])), flush=True)
