"""FastMCP's "User Elicitation" examples as one FastMCP server, for Parley's client to drive.

Each tool asks one kind of question the FastMCP docs describe and returns, as JSON, what arrived
on this side (`{"action": ..., "data": ...}`), so the tests assert on the Python values the answer
became. Handshake-era connections ask with `ctx.elicit()` (and the SDK session's
`elicit_url`, `list_roots`, `create_message`); modern ones (2026-07-28) with the guard pattern,
through `ask()` (asking.py), which replays earlier answers from `request_state`.

Usage: server.py stdio | server.py http  (http prints "listening on <port>" once it is bound)
"""

import dataclasses
import enum
import json
import socket
import sys
import warnings
from typing import Literal

from asking import arrived, ask, guarded, is_modern
from fastmcp import Context, FastMCP
from fastmcp.server.elicitation import parse_elicit_response_type
from mcp_types import (
    CreateMessageRequest,
    CreateMessageRequestParams,
    ElicitRequest,
    ElicitRequestFormParams,
    ElicitRequestURLParams,
    InputRequiredResult,
    ListRootsRequest,
    SamplingMessage,
    TextContent,
)
from pydantic import BaseModel, Field

mcp = FastMCP("FastMCP Elicitation Peer")


# ---- Scalars, the field label, options, multi-select -----------------------------------------


@mcp.tool
@guarded
async def get_user_name(ctx: Context) -> str:
    return arrived(await ask(ctx, "name", "What's your name?", str))


@mcp.tool
@guarded
async def pick_a_number(ctx: Context) -> str:
    return arrived(await ask(ctx, "number", "Pick a number!", int))


@mcp.tool
@guarded
async def pick_a_boolean(ctx: Context) -> str:
    return arrived(await ask(ctx, "boolean", "True or false?", bool))


@mcp.tool
@guarded
async def confirm_purchase(ctx: Context) -> str:
    return arrived(
        await ask(
            ctx,
            "confirm",
            "Buy 1x Baguette?",
            bool,
            response_title="Confirm purchase",
            response_description="Approve this transaction?",
        )
    )


class Priority(enum.Enum):
    LOW = "low"
    MEDIUM = "medium"
    HIGH = "high"


class Tag(enum.Enum):
    BUG = "bug"
    FEATURE = "feature"
    DOCS = "documentation"


@mcp.tool
@guarded
async def set_priority(ctx: Context) -> str:
    return arrived(await ask(ctx, "priority", "What priority level?", ["low", "medium", "high"]))


@mcp.tool
@guarded
async def set_priority_literal(ctx: Context) -> str:
    return arrived(
        await ask(ctx, "priority", "What priority level?", Literal["low", "medium", "high"])
    )


@mcp.tool
@guarded
async def set_priority_enum(ctx: Context) -> str:
    return arrived(await ask(ctx, "priority", "What priority level?", Priority))


@mcp.tool
@guarded
async def set_priority_titled(ctx: Context) -> str:
    titled = {
        "low": {"title": "Low Priority"},
        "medium": {"title": "Medium Priority"},
        "high": {"title": "High Priority"},
    }
    return arrived(await ask(ctx, "priority", "What priority level?", titled))


@mcp.tool
@guarded
async def select_tags(ctx: Context) -> str:
    return arrived(await ask(ctx, "tags", "Choose tags", [["bug", "feature", "documentation"]]))


@mcp.tool
@guarded
async def select_tags_enum(ctx: Context) -> str:
    return arrived(await ask(ctx, "tags", "Choose tags", list[Tag]))


@mcp.tool
@guarded
async def select_priorities(ctx: Context) -> str:
    titled = [
        {
            "low": {"title": "Low Priority"},
            "medium": {"title": "Medium Priority"},
            "high": {"title": "High Priority"},
        }
    ]
    return arrived(await ask(ctx, "priorities", "Choose priorities", titled))


# ---- Structured responses and defaults --------------------------------------------------------


@dataclasses.dataclass
class UserInfo:
    name: str
    age: int


@dataclasses.dataclass
class TaskDetails:
    title: str
    description: str
    priority: Literal["low", "medium", "high"]
    due_date: str


class TaskWithDefaults(BaseModel):
    title: str = Field(description="Task title")
    description: str = Field(default="", description="Task description")
    priority: Priority = Field(default=Priority.MEDIUM, description="Task priority")


@mcp.tool
@guarded
async def collect_user_info(ctx: Context) -> str:
    return arrived(await ask(ctx, "info", "Please provide your information", UserInfo))


@mcp.tool
@guarded
async def create_task(ctx: Context) -> str:
    return arrived(await ask(ctx, "task", "Please provide task details", TaskDetails))


@mcp.tool
@guarded
async def create_task_with_defaults(ctx: Context) -> str:
    return arrived(await ask(ctx, "task", "Please provide task details", TaskWithDefaults))


# ---- Multi-turn --------------------------------------------------------------------------------


@mcp.tool
@guarded
async def plan_meeting(ctx: Context) -> str:
    title = await ask(ctx, "title", "What's the meeting title?", str)
    if title.action != "accept":
        return "Meeting planning cancelled"
    duration = await ask(ctx, "duration", "Duration in minutes?", int)
    if duration.action != "accept":
        return "Meeting planning cancelled"
    priority = await ask(ctx, "urgent", "Is this urgent?", ["yes", "no"])
    if priority.action != "accept":
        return "Meeting planning cancelled"
    urgent = priority.data == "yes"
    return f"Meeting '{title.data}' for {duration.data} minutes (Urgent: {urgent})"


# ---- Approval only: the empty schema FastMCP's `response_type=None` used to send ---------------

EMPTY_SCHEMA = {"type": "object", "properties": {}}


@mcp.tool
async def approve_action(ctx: Context) -> str | InputRequiredResult:
    if not is_modern(ctx):
        result = await ctx.session.elicit_form(
            "Approve this action?", EMPTY_SCHEMA, related_request_id=ctx.request_id
        )
        return json.dumps({"action": result.action, "content": result.content})
    answer = (ctx.input_responses or {}).get("approve")
    if answer is None:
        return InputRequiredResult(
            input_requests={
                "approve": ElicitRequest(
                    params=ElicitRequestFormParams(
                        message="Approve this action?", requested_schema=EMPTY_SCHEMA
                    )
                )
            }
        )
    return json.dumps({"action": answer.action, "content": answer.content})


@mcp.tool
async def approve_with_none(ctx: Context) -> str:
    """The older docs' `response_type=None`; FastMCP 4.0.10 requires a response type."""
    return arrived(await ctx.elicit("Approve this action?", None))


# ---- URL mode -----------------------------------------------------------------------------------

SIGN_IN = "https://auth.example.com/connect"


@mcp.tool
async def connect_account(ctx: Context) -> str | InputRequiredResult:
    if not is_modern(ctx):
        result = await ctx.session.elicit_url(
            "Sign in to Example", SIGN_IN, "signin-1", related_request_id=ctx.request_id
        )
        return json.dumps({"action": result.action})
    answer = (ctx.input_responses or {}).get("signin")
    if answer is None:
        params = ElicitRequestURLParams(
            message="Sign in to Example", url=SIGN_IN, elicitation_id="signin-1"
        )
        return InputRequiredResult(input_requests={"signin": ElicitRequest(params=params)})
    return json.dumps({"action": answer.action})


# ---- The guard pattern, verbatim from the docs (modern only) ----------------------------------


def ask_text(key: str, message: str, field: str, request_state: str | None = None):
    params = ElicitRequestFormParams(
        message=message,
        requested_schema={
            "type": "object",
            "properties": {field: {"type": "string"}},
            "required": [field],
        },
    )
    return InputRequiredResult(
        result_type="input_required",
        input_requests={key: ElicitRequest(method="elicitation/create", params=params)},
        request_state=request_state,
    )


@mcp.tool
async def book_flight(ctx: Context) -> str | InputRequiredResult:
    responses = ctx.input_responses
    if responses is None:
        return ask_text("destination", "Where would you like to fly?", "destination")
    if "destination" in responses:
        destination = responses["destination"].content["destination"]
        return ask_text(
            "date",
            f"When would you like to fly to {destination}?",
            "date",
            request_state=f"dest={destination}",
        )
    destination = ctx.request_state.split("=", 1)[1]
    date = responses["date"].content["date"]
    return f"Booked a flight to {destination} on {date}"


# ---- Elicitation, roots and sampling in one call ----------------------------------------------


def summary_request() -> CreateMessageRequestParams:
    return CreateMessageRequestParams(
        messages=[
            SamplingMessage(
                role="user",
                content=TextContent(type="text", text="Summarize this workspace in one sentence."),
            )
        ],
        max_tokens=50,
    )


@mcp.tool
async def survey_workspace(ctx: Context) -> str | InputRequiredResult:
    if not is_modern(ctx):
        purpose = await ctx.elicit("What are you working on?", str, response_title="Purpose")
        roots = (await ctx.session.list_roots()).roots
        summary = await ctx.session.create_message(
            messages=summary_request().messages, max_tokens=50
        )
        purpose_text = purpose.data if purpose.action == "accept" else "-"
    else:
        responses = ctx.input_responses
        if responses is None:
            config = parse_elicit_response_type(str, response_title="Purpose")
            return InputRequiredResult(
                input_requests={
                    "purpose": ElicitRequest(
                        params=ElicitRequestFormParams(
                            message="What are you working on?", requested_schema=config.schema
                        )
                    ),
                    "roots": ListRootsRequest(),
                    "summary": CreateMessageRequest(params=summary_request()),
                }
            )
        purpose = responses["purpose"]
        purpose_text = purpose.content["value"] if purpose.action == "accept" else "-"
        roots = responses["roots"].roots
        summary = responses["summary"]
    return json.dumps(
        {
            "purpose": purpose_text,
            "roots": [str(root.uri) for root in roots],
            "summary": summary.content.text,
            "model": summary.model,
        }
    )


# ---- A prompt and a resource that ask ----------------------------------------------------------


@mcp.prompt
@guarded
async def summarize(ctx: Context) -> str:
    quarter = await ask(ctx, "quarter", "Which quarter should the summary cover?", str)
    return f"Summarize the {quarter.data if quarter.action == 'accept' else 'latest'} results."


@mcp.resource("report://summary")
@guarded
async def report(ctx: Context) -> str:
    quarter = await ask(ctx, "quarter", "Which quarter should the summary cover?", str)
    return f"Revenue report for {quarter.data if quarter.action == 'accept' else 'all quarters'}"


def main() -> None:
    # FastMCP logs each call it refuses, with a traceback; the tests refuse some on purpose and
    # assert on what the client gets. A crash of the process still prints its traceback.
    quiet = "CRITICAL"
    # The SDK marks roots and sampling deprecated as of 2026-07-28; here they serve the handshake era.
    warnings.filterwarnings("ignore", message=".*deprecated as of 2026-07-28")
    transport = sys.argv[1] if len(sys.argv) > 1 else "stdio"
    if transport == "stdio":
        mcp.run("stdio", show_banner=False, log_level=quiet)
        return
    # Bound here, on a free port of 127.0.0.1, so the port is known before uvicorn starts.
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    # Listening already, so a client that connects before uvicorn is up waits in the backlog
    # instead of being refused.
    sock.listen(128)
    print(f"listening on {sock.getsockname()[1]}", flush=True)
    mcp.run(
        "http",
        show_banner=False,
        host="127.0.0.1",
        port=sock.getsockname()[1],
        sockets=[sock],
        log_level=quiet.lower(),
    )


if __name__ == "__main__":
    main()
