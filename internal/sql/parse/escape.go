package parse

// UnescapeByte is the byte a backslash escape stands for in MySQL's string
// literals and in LOAD DATA / SELECT ... INTO OUTFILE text: \0 \b \n \r \t
// and \Z (Ctrl-Z); any other escaped byte stands for itself.
func UnescapeByte(e byte) byte {
	switch e {
	case '0':
		return 0
	case 'b':
		return '\b'
	case 'n':
		return '\n'
	case 'r':
		return '\r'
	case 't':
		return '\t'
	case 'Z':
		return 26
	}
	return e
}
