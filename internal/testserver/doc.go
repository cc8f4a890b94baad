// Package testserver starts real strata server processes from Go tests.
//
// Binary builds ./cmd/strata once per test process (or uses $STRATA_BINARY);
// Start runs `strata serve` (supervised by internal/proc) on a free loopback
// port with its own data directory, waits until `SELECT 1` succeeds through
// go-sql-driver/mysql, and registers a cleanup that stops the server with
// SIGTERM (failing the test if it does not exit cleanly) and prints the tail
// of the server log when the test failed. Kill (SIGKILL), Stop (SIGTERM) and
// Restart (same data directory and port) drive crash and recovery tests.
//
// Caveats: the binary built by Binary lives in a temporary directory that is
// not removed when the test process ends (set STRATA_BINARY to avoid builds
// altogether); on Linux the server gets SIGKILL if the thread that started it
// dies, so a crashed test does not leave servers behind.
package testserver
