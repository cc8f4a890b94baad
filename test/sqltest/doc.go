// Package sqltest holds strata's SQL behaviour scripts and the runner that
// plays them through the MySQL wire protocol.
//
// The scripts in testdata/*.test are the specification of the MySQL
// behaviour strata must meet. Their format (sqllogictest-like) is described
// in README.md; this package parses it (Parse) and renders result values the
// way the scripts spell them (FormatValue). The runner itself is the test
// TestSQL in package sqltest_test: by default it starts one strata server
// with internal/testserver; with -sqltest.dsn (or STRATA_SQLTEST_DSN) it
// runs against any MySQL-compatible server, e.g. MariaDB, which is how the
// scripts are validated.
package sqltest
