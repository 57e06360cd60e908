from fastmcp import Client
from fastmcp.client.elicitation import ElicitResult


async def handler(message, response_type, params, ctx):
    if "Where" in message:
        return ElicitResult(action="accept", content=response_type(destination="Paris"))
    return ElicitResult(action="accept", content=response_type(date="2026-08-01"))


async with Client(mcp, mode="auto", elicitation_handler=handler) as client:
    result = await client.call_tool("book_flight", {})
    print(result.data)  # "Booked a flight to Paris on 2026-08-01"
