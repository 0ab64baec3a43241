"""UNO over MCP: the SDK's own client, over stdio, lists the four tools and plays a
whole round through new_game / observe / act; an invalid move is a tool error that
changes nothing."""

from __future__ import annotations

import sys

import pytest

pytest.importorskip("mcp")

import anyio  # noqa: E402
from mcp import ClientSession  # noqa: E402
from mcp.client.stdio import StdioServerParameters, stdio_client  # noqa: E402


async def _play(house: str | None) -> dict:
    params = StdioServerParameters(command=sys.executable, args=["-m", "unosim.cli.app", "mcp"])
    seen: dict = {"steps": 0, "by_text": 0}
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            tools = {t.name for t in (await session.list_tools()).tools}
            seen["tools"] = tools
            args = {"rules": "official", "players": 3, "opponents": "random", "seed": 4}
            if house:
                args["house"] = house
            r = await session.call_tool("new_game", args)
            assert not r.is_error, r.content
            gid = r.structured_content["game_id"]
            bad = await session.call_tool("act", {"game_id": gid, "action": "purple 11"})
            if not r.structured_content["over"]:
                assert bad.is_error and "invalid move" in bad.content[0].text
            while True:
                r = await session.call_tool("observe", {"game_id": gid})
                data = r.structured_content
                assert "Legal actions" in r.content[0].text or data["over"]
                if data["over"]:
                    break
                legal = data["legal"]
                assert legal and all(set(x) == {"id", "text"} for x in legal)
                # alternate the three ways of naming an action: id, letter, words
                k = seen["steps"] % 3
                pick = legal[-1]
                action = [str(pick["id"]), chr(65 + len(legal) - 1), pick["text"]][k]
                seen["by_text"] += k == 2
                r = await session.call_tool("act", {"game_id": gid, "action": action})
                assert not r.is_error, (action, r.content[0].text)
                seen["steps"] += 1
                assert seen["steps"] < 3000
            seen["final"] = data
            rules = await session.call_tool("rules", {"rules": "official"})
            seen["rules"] = rules.content[0].text
    return seen


@pytest.mark.parametrize("house", [None, "stacking=same,seven_zero=true"])
def test_the_sdk_client_plays_a_round_to_the_end(house):
    seen = anyio.run(_play, house)
    assert seen["tools"] == {"new_game", "observe", "act", "rules"}
    assert seen["final"]["over"] is True
    assert seen["final"]["winner"] in (0, 1, 2)
    assert seen["final"]["legal"] == []
    assert seen["steps"] > 0 and seen["by_text"] > 0
    assert "stacking" in seen["rules"]
