package binlog

import "strings"

// sqlModeBits are MySQL 8.0's sql_mode bits (sql_class.h), as QUERY
// events carry them.
var sqlModeBits = map[string]uint64{
	"REAL_AS_FLOAT":              1 << 0,
	"PIPES_AS_CONCAT":            1 << 1,
	"ANSI_QUOTES":                1 << 2,
	"IGNORE_SPACE":               1 << 3,
	"ONLY_FULL_GROUP_BY":         1 << 5,
	"NO_UNSIGNED_SUBTRACTION":    1 << 6,
	"NO_DIR_IN_CREATE":           1 << 7,
	"ANSI":                       1 << 18,
	"NO_AUTO_VALUE_ON_ZERO":      1 << 19,
	"NO_BACKSLASH_ESCAPES":       1 << 20,
	"STRICT_TRANS_TABLES":        1 << 21,
	"STRICT_ALL_TABLES":          1 << 22,
	"NO_ZERO_IN_DATE":            1 << 23,
	"NO_ZERO_DATE":               1 << 24,
	"ALLOW_INVALID_DATES":        1 << 25,
	"ERROR_FOR_DIVISION_BY_ZERO": 1 << 26,
	"TRADITIONAL":                1 << 27,
	"HIGH_NOT_PRECEDENCE":        1 << 29,
	"NO_ENGINE_SUBSTITUTION":     1 << 30,
	"PAD_CHAR_TO_FULL_LENGTH":    1 << 31,
	"TIME_TRUNCATE_FRACTIONAL":   1 << 32,
}

// SQLModeBits converts a sql_mode value ("STRICT_TRANS_TABLES,...") to
// its bits; unknown names are left out.
func SQLModeBits(mode string) uint64 {
	var bits uint64
	for _, m := range strings.Split(mode, ",") {
		bits |= sqlModeBits[strings.ToUpper(strings.TrimSpace(m))]
	}
	return bits
}
