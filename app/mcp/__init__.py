"""The MCP adapter: a separate process whose tools call the REST API over HTTP.

It imports no service, repository or database code — its only door is HTTP, so auth,
namespace scoping and validation happen once, in the API. Modules:

- ``client`` — :class:`RestApi`, typed calls to the REST API; problem+json → :class:`ApiError`.
- ``tools`` — the tools (one function each, parameters in plain words) and ``TOOLS``.
- ``server`` — builds the ``MCPServer`` and runs it over stdio or streamable HTTP.
"""
