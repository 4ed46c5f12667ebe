"""HTTP routes, one module per concern; game-specific routers live in routes/<game>.py."""
