//go:build !sqltest_nostrata

package sqltest_test

import (
	"testing"

	"github.com/strata-db/strata/internal/testserver"
)

// startStrata starts the one strata server the scripts run against and
// returns a DSN without a database. The server lives until t ends.
func startStrata(t *testing.T) string {
	srv := testserver.Start(t, testserver.Options{})
	return srv.DSN("")
}
