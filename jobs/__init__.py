"""Background work shared by the apps: queueing tasks (with the broker-down fallback), the retry
policy, and per-thread switches that quiet signal receivers during bulk loads."""
