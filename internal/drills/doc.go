// Package drills holds the operational drills that outlast a unit test:
// the primary of a pg_auto_failover formation lost under load, and a
// recovery to a moment with pgBackRest. They run the built server and CLI
// against real PostgreSQL clusters on loopback; being their own test
// binary, their minutes count against their own test timeout, not the
// server's package's. The package has no code besides its tests.
package drills
