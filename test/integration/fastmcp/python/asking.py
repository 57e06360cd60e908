"""Asking on both eras from one FastMCP tool body, for server.py.

Handshake-era connections ask with `ctx.elicit()`; modern ones (2026-07-28) with the guard
pattern: the tool re-runs from the top each round, answers of earlier rounds travel in
`request_state` (sealed by FastMCP), and the first unanswered ask ends the round with an
InputRequiredResult.
"""

import dataclasses
import enum
import functools
import json
from typing import Any

from fastmcp import Context
from fastmcp.server.elicitation import handle_elicit_accept, parse_elicit_response_type
from mcp_types import ElicitRequest, ElicitRequestFormParams, InputRequiredResult
from mcp_types.version import MODERN_PROTOCOL_VERSIONS
from pydantic import BaseModel


def is_modern(ctx: Context) -> bool:
    return ctx.request_context.protocol_version in MODERN_PROTOCOL_VERSIONS


def jsonable(value: Any) -> Any:
    if dataclasses.is_dataclass(value):
        return {"type": type(value).__name__, **dataclasses.asdict(value)}
    if isinstance(value, BaseModel):
        return {"type": type(value).__name__, **value.model_dump(mode="json")}
    if isinstance(value, enum.Enum):
        return {"enum": type(value).__name__, "value": value.value}
    if isinstance(value, list):
        return [jsonable(item) for item in value]
    return value


def arrived(result: Any) -> str:
    """What reached the tool, as JSON: the action and, when accepted, the typed data."""
    if result.action != "accept":
        return json.dumps({"action": result.action})
    return json.dumps({"action": "accept", "data": jsonable(result.data)})


class NeedsInput(Exception):
    def __init__(self, result: InputRequiredResult):
        self.result = result


def answers_so_far(ctx: Context) -> dict[str, Any]:
    """This run's record: the earlier rounds' (from request_state) and this round's answers."""
    recorded = getattr(ctx, "_peer_recorded", None)
    if recorded is None:
        recorded = json.loads(ctx.request_state) if ctx.request_state else {}
        for key, answer in (ctx.input_responses or {}).items():
            recorded[key] = {"action": answer.action, "content": answer.content}
        ctx._peer_recorded = recorded  # type: ignore[attr-defined]
    return recorded


async def ask(ctx: Context, key: str, message: str, response_type: Any, **labels: Any) -> Any:
    """`ctx.elicit()` on handshake connections; a guard round on modern ones.

    Modern: the handler re-runs from the top each round; answers of earlier rounds travel in
    `request_state` (sealed by FastMCP), the first unanswered ask ends the round.
    """
    if not is_modern(ctx):
        return await ctx.elicit(message, response_type, **labels)
    config = parse_elicit_response_type(response_type, **labels)
    recorded = answers_so_far(ctx)
    if key not in recorded:
        raise NeedsInput(
            InputRequiredResult(
                input_requests={
                    key: ElicitRequest(
                        params=ElicitRequestFormParams(message=message, requested_schema=config.schema)
                    )
                },
                request_state=json.dumps(recorded) if recorded else None,
            )
        )
    entry = recorded[key]
    if entry["action"] != "accept":
        return type("Answer", (), {"action": entry["action"]})()
    return handle_elicit_accept(config, entry["content"])


def guarded(fn):
    """Turns the `NeedsInput` of a modern round into the round's InputRequiredResult."""

    @functools.wraps(fn)
    async def run(ctx: Context) -> str | InputRequiredResult:
        try:
            return await fn(ctx)
        except NeedsInput as needs:
            return needs.result

    return run
