package bench

import (
	"math"
	"reflect"
	"strings"
	"testing"
)

func TestWrapLabel(t *testing.T) {
	for _, c := range []struct {
		in    string
		width int
		want  []string
	}{
		{"point_select", 20, []string{"point_select"}},
		{"update_non_index", 10, []string{"update_", "non_index"}},
		{"25%, 4 cl", 5, []string{"25%,", "4 cl"}},
		{"averyverylongword", 4, []string{"averyverylongword"}},
	} {
		if got := wrapLabel(c.in, c.width); !reflect.DeepEqual(got, c.want) {
			t.Errorf("wrapLabel(%q, %d) = %q, want %q", c.in, c.width, got, c.want)
		}
	}
}

func TestCharts(t *testing.T) {
	bars := barChart("p95 <ms>", "ms", []string{"a", "b"}, []series{{Name: "strata", Values: []float64{1, 2}}, {Name: "InnoDB", Values: []float64{3, math.NaN()}}})
	if strings.Count(bars, "<rect x=") != 3+2 { // 3 bars (one missing) + 2 legend swatches
		t.Errorf("bar chart: %d rects\n%s", strings.Count(bars, "<rect x="), bars)
	}
	if !strings.Contains(bars, "p95 &lt;ms&gt;") || !strings.HasPrefix(bars, "<svg") {
		t.Error("bar chart title not escaped or not an svg")
	}
	lines := lineChart("ratio", "x", []string{"1", "4", "16"}, []series{{Name: "s", Values: []float64{1, 2, 3}}}, 1)
	if strings.Count(lines, "<circle") != 3 || !strings.Contains(lines, "<polyline") || !strings.Contains(lines, "stroke-dasharray") {
		t.Errorf("line chart:\n%s", lines)
	}
	if niceMax(7.3) != 10 || niceMax(180) != 200 || niceMax(0.22) != 0.25 || niceMax(0) != 1 {
		t.Errorf("niceMax: %v %v %v", niceMax(7.3), niceMax(180), niceMax(0.22))
	}
}
