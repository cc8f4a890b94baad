package collation

import (
	"strings"

	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/mysql/collations/colldata"
)

// space is how a collation's character set writes the pad character U+0020,
// or noPad for NO PAD collations (and unknown ids).
type space uint8

const (
	noPad     space = iota
	space8          // 0x20 (single-byte and UTF-8 character sets, GBK, ...)
	space16         // 0x00 0x20 (ucs2, utf16)
	space16LE       // 0x20 0x00 (utf16le)
	space32         // 0x00 0x00 0x00 0x20 (utf32)
)

// maxID bounds the collation ids MySQL assigns (all below 1024, strata
// looks them up by index).
const maxID = 1024

var spaces = func() (t [maxID]space) {
	for id := range t {
		t[id] = spaceOf(collations.ID(id))
	}
	return t
}()

func spaceOf(id collations.ID) space {
	c := colldata.Lookup(id)
	if c == nil {
		return noPad
	}
	name := c.Name()
	if name == "binary" || strings.Contains(name, "_0900_") || strings.Contains(name, "_nopad_") {
		return noPad
	}
	switch c.Charset().Name() {
	case "ucs2", "utf16":
		return space16
	case "utf16le":
		return space16LE
	case "utf32":
		return space32
	}
	return space8
}

// PadSpace reports whether collation id is PAD SPACE: 'a' and 'a ' compare
// equal, group together and collide in a unique index.
func PadSpace(id collations.ID) bool {
	return int(id) < maxID && spaces[id] != noPad
}

// TrimPad returns s without its trailing pad characters when collation id
// is PAD SPACE, and s unchanged otherwise. It never copies.
func TrimPad(id collations.ID, s []byte) []byte {
	if int(id) >= maxID {
		return s
	}
	switch spaces[id] {
	case space8:
		for len(s) > 0 && s[len(s)-1] == ' ' {
			s = s[:len(s)-1]
		}
	case space16:
		for len(s) >= 2 && len(s)%2 == 0 && s[len(s)-1] == ' ' && s[len(s)-2] == 0 {
			s = s[:len(s)-2]
		}
	case space16LE:
		for len(s) >= 2 && len(s)%2 == 0 && s[len(s)-1] == 0 && s[len(s)-2] == ' ' {
			s = s[:len(s)-2]
		}
	case space32:
		for len(s) >= 4 && len(s)%4 == 0 && s[len(s)-1] == ' ' && s[len(s)-2] == 0 && s[len(s)-3] == 0 && s[len(s)-4] == 0 {
			s = s[:len(s)-4]
		}
	}
	return s
}

// Compare compares a and b under collation c as MySQL does: with trailing
// pad characters ignored when the collation is PAD SPACE. It returns <0,
// 0 or >0.
func Compare(c colldata.Collation, a, b []byte) int {
	id := c.ID()
	return c.Collate(TrimPad(id, a), TrimPad(id, b), false)
}
