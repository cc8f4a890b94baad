package logictest

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
)

// Expected is the expected-failures list: records that fail because a
// feature is not built yet, keyed by "file:line", with a category and a
// reason. The list may only shrink.
type Expected map[string]ExpectedFailure

// ExpectedFailure is one entry of the list.
type ExpectedFailure struct {
	Category string
	Reason   string
}

// Key names a record in the list.
func Key(file string, line int) string { return file + ":" + strconv.Itoa(line) }

// ParseExpected reads the list. Each line groups the records of one file
// that fail for one reason:
//
//	<file> TAB <category> TAB <reason> TAB <line>,<line>,...
//
// where a line number is that of the record's header. Blank lines and lines
// starting with '#' are ignored.
func ParseExpected(rd io.Reader) (Expected, error) {
	out := Expected{}
	sc := bufio.NewScanner(rd)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		parts := strings.Split(line, "\t")
		if len(parts) != 4 {
			return nil, fmt.Errorf("expected-failures line %d: want file<TAB>category<TAB>reason<TAB>lines, got %d fields", n, len(parts))
		}
		e := ExpectedFailure{Category: parts[1], Reason: parts[2]}
		for _, l := range strings.Split(parts[3], ",") {
			ln, err := strconv.Atoi(strings.TrimSpace(l))
			if err != nil {
				return nil, fmt.Errorf("expected-failures line %d: bad record line %q", n, l)
			}
			k := Key(parts[0], ln)
			if _, dup := out[k]; dup {
				return nil, fmt.Errorf("expected-failures line %d: %s listed twice", n, k)
			}
			out[k] = e
		}
	}
	return out, sc.Err()
}

// Write writes the list grouped by file, category and reason, sorted, under
// header.
func (e Expected) Write(w io.Writer, header string) error {
	type group struct {
		file string
		ExpectedFailure
	}
	lines := map[group][]int{}
	for k, x := range e {
		f, l := splitKey(k)
		g := group{f, x}
		lines[g] = append(lines[g], l)
	}
	groups := make([]group, 0, len(lines))
	for g := range lines {
		groups = append(groups, g)
	}
	sort.Slice(groups, func(a, b int) bool {
		if groups[a].file != groups[b].file {
			return groups[a].file < groups[b].file
		}
		if groups[a].Category != groups[b].Category {
			return groups[a].Category < groups[b].Category
		}
		return groups[a].Reason < groups[b].Reason
	})
	bw := bufio.NewWriter(w)
	bw.WriteString(header)
	for _, g := range groups {
		ls := lines[g]
		sort.Ints(ls)
		strs := make([]string, len(ls))
		for i, l := range ls {
			strs[i] = strconv.Itoa(l)
		}
		fmt.Fprintf(bw, "%s\t%s\t%s\t%s\n", g.file, g.Category, g.Reason, strings.Join(strs, ","))
	}
	return bw.Flush()
}

// Categories counts entries per category.
func (e Expected) Categories() map[string]int {
	out := map[string]int{}
	for _, x := range e {
		out[x.Category]++
	}
	return out
}

func splitKey(k string) (string, int) {
	i := strings.LastIndexByte(k, ':')
	n, _ := strconv.Atoi(k[i+1:])
	return k[:i], n
}
