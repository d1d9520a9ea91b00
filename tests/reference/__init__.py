"""Helpers of the reference-agreement tests: the JavaScript reference runner, shared inputs."""
