"""Rules engines: one package per game on the contract in rules.core. Imports neither vision nor server."""
