import os
from fastmcp import FastMCP
from mcp.server.request_state import RequestStateSecurity

mcp = FastMCP(
    "Booking Server",
    request_state_security=RequestStateSecurity(keys=[os.environ["REQUEST_STATE_KEY"].encode()]),
)
