"""Framework adapters, each an optional extra of the package: ``langgraph``
(:class:`~hindsight_client.integrations.langgraph.HindsightStore`, ``pip install
"hindsight-client[langgraph]"``) and ``openai_agents`` (memory tools for the OpenAI Agents
SDK, ``pip install "hindsight-client[openai-agents]"``). Importing one without its extra
raises ImportError naming the framework."""
