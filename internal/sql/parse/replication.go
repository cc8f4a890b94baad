package parse

import (
	"fmt"
	"strconv"
	"strings"
)

// Replication statements, which Vitess's grammar lacks:
//
//	CHANGE REPLICATION SOURCE TO option = value [, option = value]... [FOR CHANNEL 'name']
//	CHANGE MASTER TO option = value [, ...]                (MASTER_* spellings)
//	START REPLICA | START SLAVE [thread types ...]
//	STOP REPLICA | STOP SLAVE [thread types ...]
//	RESET REPLICA [ALL] | RESET SLAVE [ALL]
//	SHOW REPLICA STATUS | SHOW SLAVE STATUS
//
// Option names are returned in their SOURCE_ spelling (MASTER_HOST ->
// SOURCE_HOST); values are strings (quoted) or numbers/keywords (bare).

// ReplicaVerb is which replication statement was parsed.
type ReplicaVerb uint8

// The replication statements.
const (
	ReplicaChange ReplicaVerb = iota + 1
	ReplicaStart
	ReplicaStop
	ReplicaReset
	ReplicaShowStatus
)

// ReplicaOption is one option = value of CHANGE REPLICATION SOURCE TO.
type ReplicaOption struct {
	// Name in the SOURCE_ spelling, upper case (SOURCE_HOST, ...).
	Name string
	// Value: the string's contents when Quoted, else the bare token
	// (a number or a keyword), as written.
	Value  string
	Quoted bool
}

// ReplicaStmt is a parsed replication statement.
type ReplicaStmt struct {
	Verb ReplicaVerb
	// Legacy: written with MASTER/SLAVE (SHOW SLAVE STATUS names its
	// columns the old way).
	Legacy bool
	// Options of CHANGE REPLICATION SOURCE TO, in order.
	Options []ReplicaOption
	// All: RESET REPLICA ALL.
	All bool
	// Rest is the text after the statement's keywords that strata does
	// not implement (START REPLICA IO_THREAD, UNTIL ..., FOR CHANNEL 'x'),
	// "" when there is none.
	Rest string
}

// ParseReplica recognises a replication statement. ok is false when sql is
// none of them; err is a syntax error in one.
func ParseReplica(sql string) (st *ReplicaStmt, ok bool, err error) {
	toks, err := replTokens(sql)
	if err != nil || len(toks) < 2 {
		return nil, false, nil
	}
	w := func(i int) string {
		if i < len(toks) && !toks[i].quoted {
			return strings.ToUpper(toks[i].text)
		}
		return ""
	}
	st = &ReplicaStmt{}
	var n int // tokens consumed
	switch {
	case w(0) == "CHANGE" && w(1) == "REPLICATION" && w(2) == "SOURCE" && w(3) == "TO":
		st.Verb, n = ReplicaChange, 4
	case w(0) == "CHANGE" && w(1) == "MASTER" && w(2) == "TO":
		st.Verb, st.Legacy, n = ReplicaChange, true, 3
	case (w(0) == "START" || w(0) == "STOP") && (w(1) == "REPLICA" || w(1) == "SLAVE"):
		st.Verb, st.Legacy, n = ReplicaStart, w(1) == "SLAVE", 2
		if w(0) == "STOP" {
			st.Verb = ReplicaStop
		}
	case w(0) == "RESET" && (w(1) == "REPLICA" || w(1) == "SLAVE"):
		st.Verb, st.Legacy, n = ReplicaReset, w(1) == "SLAVE", 2
		if w(2) == "ALL" {
			st.All, n = true, 3
		}
	case w(0) == "SHOW" && (w(1) == "REPLICA" || w(1) == "SLAVE") && w(2) == "STATUS":
		st.Verb, st.Legacy, n = ReplicaShowStatus, w(1) == "SLAVE", 3
	default:
		return nil, false, nil
	}
	if st.Verb != ReplicaChange {
		if n < len(toks) {
			st.Rest = restOf(sql, toks[n])
		}
		return st, true, nil
	}
	for n < len(toks) {
		if w(n) == "FOR" {
			st.Rest = restOf(sql, toks[n])
			break
		}
		if len(st.Options) > 0 {
			if toks[n].text != "," || toks[n].quoted {
				return nil, true, syntaxNear(sql, toks[n])
			}
			n++
		}
		if n+2 >= len(toks) || toks[n].quoted || w(n+1) != "=" {
			return nil, true, syntaxNear(sql, toks[n])
		}
		name := w(n)
		if strings.HasPrefix(name, "MASTER_") {
			name = "SOURCE_" + name[len("MASTER_"):]
		}
		v := toks[n+2]
		if !v.quoted && (v.text == "," || v.text == "=") {
			return nil, true, syntaxNear(sql, v)
		}
		st.Options = append(st.Options, ReplicaOption{Name: name, Value: v.text, Quoted: v.quoted})
		n += 3
	}
	if len(st.Options) == 0 && st.Rest == "" {
		return nil, true, fmt.Errorf("syntax error: CHANGE REPLICATION SOURCE TO needs an option")
	}
	return st, true, nil
}

// SyntaxNear is the text of a replication statement from its offending
// token on (the "near '...'" of a 1064).
type SyntaxNear struct{ Near string }

func (e *SyntaxNear) Error() string { return "syntax error near '" + e.Near + "'" }

func syntaxNear(sql string, t replToken) error { return &SyntaxNear{Near: restOf(sql, t)} }

func restOf(sql string, t replToken) string {
	return strings.TrimRight(strings.TrimSpace(sql[t.pos:]), "; \t\r\n")
}

type replToken struct {
	text   string
	quoted bool
	pos    int
}

// replTokens splits a statement into words, quoted strings (contents
// unescaped), numbers, '=' and ','. A trailing ';' ends it.
func replTokens(sql string) ([]replToken, error) {
	var toks []replToken
	i := 0
	for i < len(sql) {
		c := sql[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == ';':
			if strings.TrimSpace(sql[i+1:]) != "" {
				return nil, fmt.Errorf("text after ';'")
			}
			return toks, nil
		case c == '=' || c == ',':
			toks = append(toks, replToken{text: sql[i : i+1], pos: i})
			i++
		case c == '\'' || c == '"':
			var b strings.Builder
			j := i + 1
			for ; j < len(sql); j++ {
				d := sql[j]
				if d == '\\' && j+1 < len(sql) {
					j++
					switch sql[j] {
					case 'n':
						b.WriteByte('\n')
					case 't':
						b.WriteByte('\t')
					case '0':
						b.WriteByte(0)
					default:
						b.WriteByte(sql[j])
					}
					continue
				}
				if d == c {
					if j+1 < len(sql) && sql[j+1] == c {
						b.WriteByte(c)
						j++
						continue
					}
					break
				}
				b.WriteByte(d)
			}
			if j >= len(sql) {
				return nil, fmt.Errorf("unterminated string")
			}
			toks = append(toks, replToken{text: b.String(), quoted: true, pos: i})
			i = j + 1
		case c == '`':
			j := strings.IndexByte(sql[i+1:], '`')
			if j < 0 {
				return nil, fmt.Errorf("unterminated identifier")
			}
			toks = append(toks, replToken{text: sql[i+1 : i+1+j], pos: i})
			i += j + 2
		default:
			j := i
			for j < len(sql) && isReplWordByte(sql[j]) {
				j++
			}
			if j == i {
				return nil, fmt.Errorf("unexpected %q", c)
			}
			toks = append(toks, replToken{text: sql[i:j], pos: i})
			i = j
		}
	}
	return toks, nil
}

func isReplWordByte(c byte) bool {
	return c == '_' || c == '.' || c == '-' || c == '+' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// Uint returns an option's value as an unsigned number (a bare number).
func (o ReplicaOption) Uint() (uint64, bool) {
	if o.Quoted {
		return 0, false
	}
	n, err := strconv.ParseUint(o.Value, 10, 64)
	return n, err == nil
}
