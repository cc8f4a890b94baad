package bench

import (
	"fmt"
	"io"
	"regexp"
	"strings"
)

// table is a report table rendered both as Markdown and as HTML.
type table struct {
	Header []string
	Rows   [][]string
	Left   bool // left-align every column (default: figures right-aligned)
}

func (t *table) markdown(w io.Writer) {
	cell := func(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
	fmt.Fprintf(w, "| %s |\n", strings.Join(mapStr(t.Header, cell), " | "))
	seps := make([]string, len(t.Header))
	for i := range seps {
		seps[i] = "---"
		if i > 0 && !t.Left {
			seps[i] = "---:"
		}
	}
	fmt.Fprintf(w, "|%s|\n", strings.Join(seps, "|"))
	for _, r := range t.Rows {
		fmt.Fprintf(w, "| %s |\n", strings.Join(mapStr(r, cell), " | "))
	}
	fmt.Fprintln(w)
}

func (t *table) html(w io.Writer) {
	fmt.Fprint(w, "<table>\n<tr>")
	for _, h := range t.Header {
		fmt.Fprintf(w, "<th>%s</th>", inlineHTML(h))
	}
	fmt.Fprint(w, "</tr>\n")
	for _, r := range t.Rows {
		fmt.Fprint(w, "<tr>")
		for i, c := range r {
			cls := ""
			if t.Left {
				fmt.Fprintf(w, "<td>%s</td>", inlineHTML(c))
				continue
			}
			if i > 0 {
				cls = ` class="num"`
			}
			if strings.Contains(c, "slower") || strings.Contains(c, "more") {
				cls = ` class="num worse"`
			} else if strings.Contains(c, "faster") || strings.Contains(c, "less") {
				cls = ` class="num better"`
			}
			fmt.Fprintf(w, "<td%s>%s</td>", cls, inlineHTML(c))
		}
		fmt.Fprint(w, "</tr>\n")
	}
	fmt.Fprint(w, "</table>\n")
}

func mapStr(xs []string, f func(string) string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = f(x)
	}
	return out
}

var (
	codeRE = regexp.MustCompile("`([^`]+)`")
	boldRE = regexp.MustCompile(`\*\*([^*]+)\*\*`)
)

// inlineHTML escapes s and renders Markdown `code` and **bold**.
func inlineHTML(s string) string {
	s = esc(s)
	s = codeRE.ReplaceAllString(s, "<code>$1</code>")
	return boldRE.ReplaceAllString(s, "<b>$1</b>")
}
