// Package proc supervises the server processes strata's tools and tests run
// from outside: strata itself for tests (internal/testserver) and the crash
// loop (internal/stress), and strata, MariaDB and fio for the benchmark
// (internal/bench).
//
// # Basics
//
// Start spawns a command in its own process group with its stdout and
// stderr appended to a log file, and reaps it exactly once in the
// background; a Process is one run of the command (a restart is a new
// Start). WaitReady polls a TCP address, then an optional caller-supplied
// check such as SelectOne, until the server answers, exits or a timeout
// passes. Stop sends SIGTERM to the group and SIGKILL after a bound; Kill
// sends SIGKILL. A process that ends without Stop or Kill is reported by
// Unexpected. FreePort picks a free loopback port and Tail reads the end of
// a log.
//
// # Caveats
//
// FreePort's port is free when it returns, not reserved: another process
// may take it before the server binds it (WaitReady then fails or the
// server exits). On Linux the kernel sends SIGKILL to the process when the
// thread that started it dies (Pdeathsig), so an aborted run leaves no
// servers behind; elsewhere a crashed supervisor leaks its children.
// Signals go to the whole process group, so children the server starts in
// its group are stopped with it.
package proc
