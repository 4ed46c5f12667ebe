"""The FastAPI app, its event store and the live page. Wires rules and vision together."""
