package bench

import (
	"fmt"
	"html"
	"math"
	"strconv"
	"strings"
)

// series is one named row of values of a chart; NaN marks a missing value.
type series struct {
	Name   string
	Values []float64
}

// chart geometry.
const (
	chartW      = 820
	chartH      = 380
	chartLeft   = 70
	chartRight  = 180 // legend column
	chartTop    = 40
	chartBottom = 90 // rotated category labels
)

// palette colours series; strata, InnoDB and MyRocks keep the same colours
// in every chart because they always come in that order.
var palette = []string{"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"}

func esc(s string) string { return html.EscapeString(s) }

// niceMax rounds v up to 1, 2, 2.5 or 5 × a power of ten.
func niceMax(v float64) float64 {
	if v <= 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if v <= m*p {
			return m * p
		}
	}
	return 10 * p
}

func maxOf(ss []series, ref float64) float64 {
	m := ref
	for _, s := range ss {
		for _, v := range s.Values {
			if !math.IsNaN(v) && v > m {
				m = v
			}
		}
	}
	return m
}

// svgFrame writes the header, title, y axis with grid lines and the
// category labels, and returns the y scale.
func svgFrame(b *strings.Builder, title, yLabel string, cats []string, ymax float64) func(float64) float64 {
	plotW := chartW - chartLeft - chartRight
	plotH := chartH - chartTop - chartBottom
	fmt.Fprintf(b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="11">`+"\n", chartW, chartH, chartW, chartH)
	fmt.Fprintf(b, `<rect width="%d" height="%d" fill="white"/>`+"\n", chartW, chartH)
	fmt.Fprintf(b, `<text x="%d" y="20" font-size="14" font-weight="bold">%s</text>`+"\n", chartLeft, esc(title))
	y := func(v float64) float64 { return float64(chartTop+plotH) - v/ymax*float64(plotH) }
	for i := 0; i <= 5; i++ {
		v := ymax * float64(i) / 5
		fmt.Fprintf(b, `<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#ddd"/>`+"\n", chartLeft, y(v), chartLeft+plotW, y(v))
		fmt.Fprintf(b, `<text x="%d" y="%.1f" text-anchor="end">%s</text>`+"\n", chartLeft-6, y(v)+4, strconv.FormatFloat(math.Round(v*1e6)/1e6, 'f', -1, 64))
	}
	fmt.Fprintf(b, `<text x="%d" y="%d" text-anchor="end" fill="#555">%s</text>`+"\n", chartLeft-6, chartTop-10, esc(yLabel))
	fmt.Fprintf(b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#333"/>`+"\n", chartLeft, chartTop+plotH, chartLeft+plotW, chartTop+plotH)
	fmt.Fprintf(b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#333"/>`+"\n", chartLeft, chartTop, chartLeft, chartTop+plotH)
	slot := float64(plotW) / float64(max(len(cats), 1))
	maxChars := max(int(slot/6.5), 4)
	for i, c := range cats {
		x := float64(chartLeft) + slot*(float64(i)+0.5)
		lines := wrapLabel(c, maxChars)
		fmt.Fprintf(b, `<text x="%.1f" y="%d" text-anchor="middle">`, x, chartTop+plotH+16)
		for j, l := range lines {
			dy := "0"
			if j > 0 {
				dy = "1.2em"
			}
			fmt.Fprintf(b, `<tspan x="%.1f" dy="%s">%s</tspan>`, x, dy, esc(l))
		}
		b.WriteString("</text>\n")
	}
	return y
}

func svgLegend(b *strings.Builder, ss []series) {
	x := chartW - chartRight + 14
	for i, s := range ss {
		yy := chartTop + 8 + i*18
		fmt.Fprintf(b, `<rect x="%d" y="%d" width="12" height="12" fill="%s"/>`+"\n", x, yy-10, palette[i%len(palette)])
		fmt.Fprintf(b, `<text x="%d" y="%d">%s</text>`+"\n", x+18, yy, esc(s.Name))
	}
}

// barChart draws grouped bars: one group per category, one bar per series.
func barChart(title, yLabel string, cats []string, ss []series) string {
	var b strings.Builder
	ymax := niceMax(maxOf(ss, 0))
	y := svgFrame(&b, title, yLabel, cats, ymax)
	plotW := chartW - chartLeft - chartRight
	slot := float64(plotW) / float64(max(len(cats), 1))
	barW := slot * 0.8 / float64(max(len(ss), 1))
	for ci := range cats {
		for si, s := range ss {
			if ci >= len(s.Values) || math.IsNaN(s.Values[ci]) {
				continue
			}
			v := s.Values[ci]
			x := float64(chartLeft) + slot*float64(ci) + slot*0.1 + barW*float64(si)
			fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"><title>%s %s: %s</title></rect>`+"\n",
				x, y(v), barW, y(0)-y(v), palette[si%len(palette)], esc(s.Name), esc(cats[ci]), fmtNum(v))
		}
	}
	svgLegend(&b, ss)
	b.WriteString("</svg>\n")
	return b.String()
}

// lineChart draws one polyline with markers per series over categorical x
// positions; ref > 0 draws a dashed reference line (e.g. ratio 1).
func lineChart(title, yLabel string, xs []string, ss []series, ref float64) string {
	var b strings.Builder
	ymax := niceMax(maxOf(ss, ref*1.1))
	y := svgFrame(&b, title, yLabel, xs, ymax)
	plotW := chartW - chartLeft - chartRight
	slot := float64(plotW) / float64(max(len(xs), 1))
	xAt := func(i int) float64 { return float64(chartLeft) + slot*(float64(i)+0.5) }
	if ref > 0 {
		fmt.Fprintf(&b, `<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#555" stroke-dasharray="6,4"/>`+"\n", chartLeft, y(ref), chartLeft+plotW, y(ref))
	}
	for si, s := range ss {
		col := palette[si%len(palette)]
		var pts []string
		for i, v := range s.Values {
			if math.IsNaN(v) {
				continue
			}
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", xAt(i), y(v)))
			fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="3.5" fill="%s"><title>%s %s: %s</title></circle>`+"\n", xAt(i), y(v), col, esc(s.Name), esc(xs[i]), fmtNum(v))
		}
		if len(pts) > 1 {
			fmt.Fprintf(&b, `<polyline points="%s" fill="none" stroke="%s" stroke-width="2"/>`+"\n", strings.Join(pts, " "), col)
		}
	}
	svgLegend(&b, ss)
	b.WriteString("</svg>\n")
	return b.String()
}

// wrapLabel splits a category label into lines of at most width characters,
// breaking after '_', ' ' or ','; a word longer than width stays whole.
func wrapLabel(s string, width int) []string {
	var words []string
	cur := ""
	for _, r := range s {
		cur += string(r)
		if r == '_' || r == ' ' || r == ',' {
			words = append(words, cur)
			cur = ""
		}
	}
	if cur != "" {
		words = append(words, cur)
	}
	var lines []string
	line := ""
	for _, w := range words {
		if line != "" && len(line)+len(w) > width {
			lines = append(lines, strings.TrimSpace(line))
			line = ""
		}
		line += w
	}
	if line != "" {
		lines = append(lines, strings.TrimSpace(line))
	}
	return lines
}
