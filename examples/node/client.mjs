// A duskfall client in plain Node.js (20+, no packages): plays one game of any variant with
// random legal actions over TCP, and reconnects with its token if the connection drops.
//
//   node examples/node/client.mjs [HOST] [PORT] [NAME]
//
// Frames: an 8-byte unsigned big-endian length, then that many bytes of UTF-8 JSON.
// Protocol: docs/protocol.md. Exit status 0 when the game is over, 1 otherwise.
import net from "node:net";

const [host = "127.0.0.1", port = "8765", name = "node-example"] = process.argv.slice(2);
const SEED_KEYS = { vote: "VOTE", kill: "KILL", don_check: "DON_CHECK", sheriff_check: "SHERIFF_CHECK" };
// In werewolf and mafia, valid_actions spells the action: "type", then one key per field.
// These are the fields of their tables (docs/werewolf.md, docs/mafia.md); other keys are the
// older spelling of the same options and are not sent back.
const FIELDS = ["potion", "target", "says", "run", "withdraw", "claim"];

let token = process.env.DUSKFALL_SEAT_TOKEN || null;
let lastSeq = null;
let over = false;
let reconnects = 0;

const pick = (list) => list[Math.floor(Math.random() * list.length)];

function frame(message) {
  const body = Buffer.from(JSON.stringify(message), "utf8");
  const head = Buffer.alloc(8);
  head.writeBigUInt64BE(BigInt(body.length));
  return Buffer.concat([head, body]);
}

function choose(valid) {
  if ("declaration" in valid) {
    const who = pick(valid.nomination);
    return {
      type: "DECLARATION",
      declaration: Array.from({ length: 10 }, () => Math.floor(Math.random() * 7) - 3),
      nomination_policy: who >= 0 ? { [String(who)]: 1.0 } : {},
    };
  }
  if ("eliminate_all" in valid) return { type: "ELIMINATE_ALL_VOTE", vote: Math.random() < 0.5 };
  if (!("type" in valid)) {
    const key = Object.keys(SEED_KEYS).find((k) => k in valid);
    return { type: SEED_KEYS[key], target: pick(valid[key]) };
  }
  const action = { type: Array.isArray(valid.type) ? pick(valid.type) : valid.type };
  for (const field of FIELDS) {
    if (!(field in valid)) continue;
    let options = valid[field];
    if (options && !Array.isArray(options) && typeof options === "object") {
      // options per value of a field chosen before (the witch's target per potion)
      const chosen = Object.values(action).find((v) => typeof v === "string" && v in options);
      options = options[chosen];
    }
    if (Array.isArray(options)) action[field] = pick(options);
    else if (options === "text") action[field] = "I have nothing to hide.";
  }
  if (action.potion === "PASS") delete action.target;
  return action;
}

function play() {
  const socket = net.createConnection({ host, port: Number(port) });
  let buffer = Buffer.alloc(0);
  socket.on("connect", () => {
    const hello = { type: "HELLO", name };
    if (token) hello.token = token;
    if (token && lastSeq !== null) hello.last_seq = lastSeq;
    socket.write(frame(hello));
  });
  socket.on("data", (chunk) => {
    buffer = Buffer.concat([buffer, chunk]);
    while (buffer.length >= 8) {
      const size = Number(buffer.readBigUInt64BE(0));
      if (buffer.length < 8 + size) break;
      const message = JSON.parse(buffer.subarray(8, 8 + size).toString("utf8"));
      buffer = buffer.subarray(8 + size);
      handle(socket, message);
    }
  });
  socket.on("error", () => {});
  socket.on("close", () => {
    if (!over && token && reconnects < 5) {
      reconnects += 1;
      setTimeout(play, 200); // the seat waits for us within the reconnect grace
    } else {
      process.exit(over ? 0 : 1);
    }
  });
}

function handle(socket, message) {
  switch (message.type) {
    case "HELLO":
      token = message.token;
      break;
    case "ACTION_REQUEST":
      if (Object.keys(message.valid_actions).length === 0) return; // a state update
      socket.write(frame({
        type: "ACTION_RESPONSE",
        player_id: message.player_id,
        request_id: message.request_id,
        action: choose(message.valid_actions),
      }));
      break;
    case "GAME_EVENT":
      if (message.seq !== undefined) lastSeq = message.seq;
      if (message.event === "GAME_OVER") {
        over = true;
        console.log(`game over, winner: ${message.winner}`);
      }
      break;
    case "TIMEOUT":
    case "FALLBACK":
      console.error(`request ${message.request_id}: ${message.type}, played ${JSON.stringify(message.action)}`);
      break;
    case "ERROR":
      console.error(`error ${message.code}: ${message.detail || message.message}`);
      break;
    default:
      break; // a message of a newer server: ignored
  }
}

play();
