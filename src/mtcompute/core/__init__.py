"""Pure computation: no I/O, no JSON parsing of requests, no printing."""
