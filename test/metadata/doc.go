// Package metadata checks, through the real server and both protocols,
// that the result metadata strata reports for function calls and
// expressions over typed columns (type, DECIMALS) is MySQL 8.0's and
// describes the values sent: go-sql-driver decodes binary-protocol rows by
// the declared type, so a BIGINT column carrying a DECIMAL value, or a
// DATETIME column with fewer DECIMALS than its values, breaks clients.
//
// The expectations are MySQL 8.0's; run against MariaDB 10.11 (pointing the
// test's two DSNs at it) every one holds except the JSON type (MariaDB
// returns LONGTEXT), `->`/`->>` and REGEXP_LIKE, which MariaDB lacks.
package metadata
