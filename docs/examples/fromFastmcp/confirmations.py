@mcp.tool
async def approve_action(ctx: Context) -> str:
    result = await ctx.elicit("Approve this action?", response_type=bool)

    if result.action == "accept" and result.data:
        return do_action()
    else:
        raise ValueError("Action rejected")
