// Package durability holds the kill -9 durability acceptance test: writers
// insert rows in autocommit mode, the server is SIGKILLed at a random moment
// and restarted, and every acknowledged row must still be there (and nothing
// that was never attempted). See durability_test.go; run it with
//
//	go test ./test/durability/ -run Durability -v
//
// STRATA_DURABILITY_CYCLES sets the number of kill/restart cycles (default
// 10) and STRATA_BINARY a prebuilt server binary. Skipped under -short.
package durability
