package parse

import "regexp"

var reInsertPriority = regexp.MustCompile(`(?is)^(\s*(?:INSERT|REPLACE))\s+(?:LOW_PRIORITY|HIGH_PRIORITY|DELAYED)\b`)

// InsertPriority drops the LOW_PRIORITY, HIGH_PRIORITY or DELAYED of an
// INSERT or REPLACE (pt-online-schema-change copies rows with INSERT
// LOW_PRIORITY IGNORE): they only schedule table-level locks, which strata
// has not, and MySQL 8.0 ignores DELAYED. Vitess's parser rejects them.
func InsertPriority(sql string) (string, bool) {
	loc := reInsertPriority.FindStringSubmatchIndex(sql)
	if loc == nil {
		return sql, false
	}
	return sql[:loc[3]] + sql[loc[1]:], true
}
