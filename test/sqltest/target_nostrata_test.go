//go:build sqltest_nostrata

package sqltest_test

import "testing"

// startStrata is unavailable when built with the sqltest_nostrata tag, which
// runs the scripts against an external server (-sqltest.dsn) without
// compiling strata itself.
func startStrata(t *testing.T) string {
	t.Skip("built with -tags sqltest_nostrata: set -sqltest.dsn or STRATA_SQLTEST_DSN")
	return ""
}
