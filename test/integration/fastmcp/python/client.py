"""FastMCP's Python client, driven by the tests over stdin/stdout, one JSON object a line.

Usage: client.py <url> <mode>                      (Streamable HTTP)
       client.py stdio <mode> <command> [args...]  (a server started as a child process)
<mode> is FastMCP's: "legacy" (the handshake era) or "2026-07-28".

Each command, `{"id", "op": "call_tool" | "get_prompt" | "read_resource", "name", "answers"}`,
runs with `answers`, a queue the elicitation handler answers from, in order:
  {"value": v}           the bare value (FastMCP wraps it as {"value": v})
  {"fields": {...}}      response_type(**fields), FastMCP's typed answer
  {"raw": {...}}         ElicitResult(action="accept", content=raw), unchecked (a wrong answer)
  {"action": "accept" | "decline" | "cancel"}   with no content
The reply, `{"id", "ok", "result" | "error", "asked"}`, says what the handler was asked.
"""

import asyncio
import dataclasses
import json
import os
import sys
from typing import Any

from fastmcp import Client
from fastmcp.client.elicitation import ElicitResult
from fastmcp.client.transports import StdioTransport
from mcp_types import ElicitRequestFormParams

queue: list[dict[str, Any]] = []
asked: list[dict[str, Any]] = []


async def elicitation_handler(message, response_type, params, ctx):
    record: dict[str, Any] = {"message": message, "typed": response_type is not None}
    if isinstance(params, ElicitRequestFormParams):
        record["schema"] = params.requested_schema
    else:
        record["url"] = params.url
    asked.append(record)
    if not queue:
        raise ValueError(f"no answer left for {message!r}")
    answer = queue.pop(0)
    if "value" in answer:
        return answer["value"]
    if "fields" in answer:
        return response_type(**answer["fields"])
    if "raw" in answer:
        return ElicitResult(action="accept", content=answer["raw"])
    return ElicitResult(action=answer["action"])


async def sampling_handler(messages, params, ctx):
    return "A TypeScript monorepo."


def jsonable(value: Any) -> Any:
    if dataclasses.is_dataclass(value):
        return dataclasses.asdict(value)
    if hasattr(value, "model_dump"):
        return value.model_dump(mode="json", by_alias=True, exclude_none=True)
    if isinstance(value, list):
        return [jsonable(item) for item in value]
    return value


async def run(client: Client, command: dict[str, Any]) -> Any:
    op, name = command["op"], command["name"]
    if op == "call_tool":
        result = await client.call_tool(name, command.get("arguments", {}))
        return {"content": jsonable(result.content), "data": jsonable(result.data)}
    if op == "get_prompt":
        return jsonable(await client.get_prompt(name))
    if op == "read_resource":
        return jsonable(await client.read_resource(name))
    raise ValueError(f"unknown op {op!r}")


async def main() -> None:
    target, mode = sys.argv[1], sys.argv[2]
    transport: Any = target
    if target == "stdio":
        transport = StdioTransport(sys.argv[3], sys.argv[4:], env=dict(os.environ), cwd=os.getcwd())
    client = Client(
        transport,
        mode=mode,
        elicitation_handler=elicitation_handler,
        sampling_handler=sampling_handler,
        roots=["file:///home/me/project"],
    )
    loop = asyncio.get_running_loop()
    async with client:
        print(json.dumps({"ready": True, "protocol": client.protocol_version}), flush=True)
        while True:
            line = await loop.run_in_executor(None, sys.stdin.readline)
            if not line:
                return
            command = json.loads(line)
            queue[:] = command.get("answers", [])
            asked.clear()
            reply: dict[str, Any] = {"id": command["id"]}
            try:
                reply.update(ok=True, result=await run(client, command))
            except Exception as error:  # the test asserts on it
                reply.update(ok=False, error=str(error), type=type(error).__name__)
            reply["asked"] = list(asked)
            print(json.dumps(reply), flush=True)


if __name__ == "__main__":
    asyncio.run(main())
