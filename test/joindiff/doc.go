// Package joindiff holds a differential test of joins: random tables and
// random join shapes (nested outer joins, RIGHT JOIN, USING and NATURAL
// inside parentheses, WHERE conditions on NULL-extended tables) run on
// strata and on a MySQL or MariaDB server, whose results must agree.
//
//	STRATA_JOINDIFF_DSN='root@tcp(127.0.0.1:33061)/' go test ./test/joindiff/
//
// Without the variable the test is skipped. STRATA_JOINDIFF_SEED and
// STRATA_JOINDIFF_N pick the seed and the number of queries.
package joindiff
