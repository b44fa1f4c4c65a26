"""Every fixed sentence of GM mode, in each supported language (``zh``, ``en``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Language = Literal["zh", "en"]
LANGUAGES: tuple[Language, ...] = ("zh", "en")


@dataclass(frozen=True, slots=True)
class Texts:
    """Templates use ``str.format`` fields named in each attribute's comment."""

    gm_label: str
    joiner: str  # between names in a list
    secret_notice: str  # {name}
    private_notice: str  # {name}
    silent: str
    game_started: str  # {players}
    opening_trigger: str
    next_trigger: str
    marker_guide: str  # {players} {first} {second}
    reminder: str  # {reason} {players}
    notebook_header: str
    chat_header: str  # {window}
    no_messages: str
    sent_entry: str  # {name} {text}
    received_entry: str  # {name} {text}
    player_system: str  # {name} {persona} {rules}
    secrets_header: str
    no_secrets: str
    own_private_reply: str  # {text}
    public_turn: str  # {name}
    private_turn: str  # {name}
    # markers as structured turns are rendered (see duskfall.gm.turns)
    turn_marker: str  # {name}
    private_turn_marker: str  # {name}
    secret_marker: str  # {name} {text}
    game_over_marker: str
    # structured turns and card skeletons
    json_guide: str  # {players}
    json_reminder: str  # {reason} {players}
    brief: str  # {title} {summary}
    roles_line: str  # {roles}
    role_entry: str  # {name} {role}
    out_line: str  # {names}
    phase_line: str  # {phase}
    to_act_line: str  # {names}
    happened_header: str
    private_header: str
    skeleton_trigger: str
    out_hint: str
    end_hint: str
    none: str
    role_secret: str  # {role}
    known_secret: str  # {roles} {names}
    phase_chat: str  # {phase}
    out_chat: str  # {name}
    task_line: str  # {task}


ZH = Texts(
    gm_label="主持人",
    joiner="、",
    secret_notice="[系统已向{name}发送秘密信息]",
    private_notice="[{name}已私下回复主持人]",
    silent="（沉默）",
    game_started="游戏开始。玩家：{players}",
    opening_trigger="请开始游戏：致开场白，并用秘密指示给每位玩家分配身份。",
    next_trigger="请根据聊天记录判断下一步行动。",
    marker_guide=(
        "## 主持方式\n"
        "玩家：{players}\n"
        "你写的所有内容所有玩家都能看到，秘密指示除外。每条回复必须至少包含一个标记：\n"
        "- 【轮到：名字】 让该玩家公开发言（每条回复只有第一个轮到标记有效）。\n"
        "- 【私密轮到：名字】 让该玩家私下回复你（夜间行动、秘密投票），只有你能看到。\n"
        "- 【秘密指示：名字｜内容】 把内容只发给该玩家（身份、夜间结果），可以有多个。\n"
        "- 游戏结束：宣布胜负后说“游戏结束”，只在游戏真正结束时说。\n"
        "名字必须与玩家名单完全一致。每条回复保持简短。\n"
        "示例：天黑了，请闭眼。【秘密指示：{first}｜你的身份是……】【轮到：{second}】"
    ),
    reminder=(
        "格式提醒：你上一条回复无法执行（{reason}）。请重新回复，并使用标记："
        "【轮到：名字】、【私密轮到：名字】、【秘密指示：名字｜内容】，"
        "或在游戏结束时说“游戏结束”。玩家：{players}"
    ),
    notebook_header="## 你的秘密记录（只有你能看到）",
    chat_header="## 公开聊天记录（最近{window}条）",
    no_messages="（暂无消息）",
    sent_entry="→ 发给{name}：{text}",
    received_entry="← {name}私下回复：{text}",
    player_system=(
        "你是{name}，正在参加一场由主持人主持的游戏。\n"
        "你的人格：{persona}\n\n"
        "## 游戏规则\n{rules}\n\n"
        "轮到你时，只写你要说的话或要做的事，用中文，两三句话。"
        "不要替别的玩家说话，不要使用方括号。"
    ),
    secrets_header="## 你的秘密信息（只有你知道）",
    no_secrets="（暂无）",
    own_private_reply="你私下回复了主持人：{text}",
    public_turn="现在轮到你（{name}）公开发言。",
    private_turn="现在轮到你（{name}）私下回复主持人，只有主持人能看到。请回应主持人最新的秘密指示。",
    turn_marker="【轮到：{name}】",
    private_turn_marker="【私密轮到：{name}】",
    secret_marker="【秘密指示：{name}｜{text}】",
    game_over_marker="【游戏结束】",
    json_guide=(
        "## 回复格式\n玩家：{players}\n用一个JSON对象回复：narration 是所有人都能看到的话；"
        "secrets 是只发给一名玩家的秘密信息（身份、夜间结果）；next 是下一位行动的玩家，"
        "private 为 true 表示私下回复你；game_over 只在游戏真正结束时为 true，result 写胜负。"
    ),
    json_reminder="你上一条回复无法执行（{reason}）。请重新回复。{players}",
    brief="你是“{title}”的主持人。{summary}",
    roles_line="身份（秘密）：{roles}",
    role_entry="{name}={role}",
    out_line="已出局：{names}",
    phase_line="当前阶段：{phase}",
    to_act_line="还未行动：{names}",
    happened_header="最近发生的事：",
    private_header="私下回复：",
    skeleton_trigger="用中文写一两句旁白，并从“还未行动”中选出下一位玩家。",
    out_hint="如果有人死亡或被放逐，把他写进 out，否则 out 为空。",
    end_hint="如果某一方已经获胜，game_over 为 true，并在 result 写明胜方。",
    none="无",
    role_secret="你的身份是：{role}。",
    known_secret="{roles}：{names}。",
    phase_chat="—— {phase} ——",
    out_chat="{name}出局了。",
    task_line="现在：{task}",
)

EN = Texts(
    gm_label="GM",
    joiner=", ",
    secret_notice="[system sent a secret message to {name}]",
    private_notice="[{name} answered the GM in private]",
    silent="(silent)",
    game_started="The game begins. Players: {players}",
    opening_trigger=(
        "Start the game: give a short opening and assign every player a role with secret "
        "instructions."
    ),
    next_trigger="Read the chat and decide the next step.",
    marker_guide=(
        "## How you run the game\n"
        "Players: {players}\n"
        "Everything you write is shown to all players, except secret instructions. "
        "Every reply must contain at least one marker:\n"
        "- [TURN: NAME] NAME speaks next in public (only the first turn marker counts).\n"
        "- [PRIVATE TURN: NAME] NAME answers you in private (night actions, secret votes); "
        "only you see the answer.\n"
        "- [SECRET: NAME | TEXT] TEXT is shown to NAME only (roles, night results); "
        "several per reply are fine.\n"
        "- GAME OVER: say it after announcing the winner, and only when the game has ended.\n"
        "Write the names exactly as listed. Keep every reply short.\n"
        "Example: Night falls. [SECRET: {first} | Your role is ...] [TURN: {second}]"
    ),
    reminder=(
        "Format reminder: your last reply could not be used ({reason}). Reply again using the "
        "markers [TURN: NAME], [PRIVATE TURN: NAME], [SECRET: NAME | TEXT], or say GAME OVER "
        "when the game has ended. Players: {players}"
    ),
    notebook_header="## Your private notebook (only you see this)",
    chat_header="## Public chat (last {window} messages)",
    no_messages="(no messages yet)",
    sent_entry="-> to {name}: {text}",
    received_entry="<- {name} answered in private: {text}",
    player_system=(
        "You are {name}, a player in a game run by a game master (GM).\n"
        "Your persona: {persona}\n\n"
        "## The game\n{rules}\n\n"
        "When it is your turn, write only what you say or do, in English, in two or three "
        "sentences. Do not speak for other players and do not use square brackets."
    ),
    secrets_header="## Your secret information (only you know this)",
    no_secrets="(none yet)",
    own_private_reply="You answered the GM in private: {text}",
    public_turn="It is your turn to speak in public, {name}.",
    private_turn=(
        "It is your private turn, {name}: only the GM sees your answer. Answer the GM's "
        "latest secret instruction."
    ),
    turn_marker="[TURN: {name}]",
    private_turn_marker="[PRIVATE TURN: {name}]",
    secret_marker="[SECRET: {name} | {text}]",
    game_over_marker="[GAME OVER]",
    json_guide=(
        "## Reply format\nPlayers: {players}\nReply with one JSON object: narration is what "
        "every player sees; secrets are messages to one player only (roles, night results); "
        "next is the player who acts next, private true if only you see the answer; "
        "game_over is true only when the game has ended, with the winner in result."
    ),
    json_reminder="Your last reply could not be used ({reason}). Reply again. {players}",
    brief="You are the game master of {title}. {summary}",
    roles_line="Roles (secret): {roles}",
    role_entry="{name}={role}",
    out_line="Out of the game: {names}",
    phase_line="Phase: {phase}",
    to_act_line="Still to act: {names}",
    happened_header="What happened lately:",
    private_header="Private answers:",
    skeleton_trigger=(
        "Write one or two sentences of narration and pick the next player from 'Still to act'."
    ),
    out_hint="If players died or were exiled, list them in out; else leave out empty.",
    end_hint="If a side has won, set game_over to true and name the winner in result.",
    none="none",
    role_secret="Your role: {role}.",
    known_secret="{roles}: {names}.",
    phase_chat="-- {phase} --",
    out_chat="{name} is out of the game.",
    task_line="Now: {task}",
)

_TEXTS: dict[str, Texts] = {"zh": ZH, "en": EN}


def texts_for(language: str) -> Texts:
    """The sentences of ``language`` (``zh`` or ``en``)."""
    return _TEXTS[language]
