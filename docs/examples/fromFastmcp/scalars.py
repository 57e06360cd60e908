@mcp.tool
async def get_user_name(ctx: Context) -> str:
    result = await ctx.elicit("What's your name?", response_type=str)

    if result.action == "accept":
        return f"Hello, {result.data}!"
    return "No name provided"

@mcp.tool
async def pick_a_number(ctx: Context) -> str:
    result = await ctx.elicit("Pick a number!", response_type=int)

    if result.action == "accept":
        return f"You picked {result.data}"
    return "No number provided"

@mcp.tool
async def pick_a_boolean(ctx: Context) -> str:
    result = await ctx.elicit("True or false?", response_type=bool)

    if result.action == "accept":
        return f"You picked {result.data}"
    return "No boolean provided"
