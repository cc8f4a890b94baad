package parse

import "regexp"

// reSetBinary finds a character set variable assigned the word BINARY
// (mysqlimport sends /*!40101 set @@character_set_database=binary */
// before LOAD DATA), which Vitess's parser rejects as a value.
var reSetBinary = regexp.MustCompile(`(?i)(\bset\b[^;]*?(?:@@(?:session\.|global\.|local\.)?)?\bcharacter_set_\w+\s*(?:=|:=)\s*)binary\b`)

// SetCharsetBinary quotes the BINARY of SET character_set_xxx = BINARY:
// the character set's name, as SET character_set_xxx = 'binary'.
func SetCharsetBinary(sql string) (string, bool) {
	if !containsFold(sql, "binary") || !containsFold(sql, "character_set_") {
		return sql, false
	}
	out := reSetBinary.ReplaceAllString(sql, "${1}'binary'")
	return out, out != sql
}
