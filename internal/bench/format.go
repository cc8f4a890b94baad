package bench

import (
	"fmt"
	"math"
	"time"
)

// fmtBytes renders a byte count with a binary unit ("12.3 MiB").
func fmtBytes(b float64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB"}
	i := 0
	for math.Abs(b) >= 1024 && i < len(units)-1 {
		b /= 1024
		i++
	}
	if i == 0 {
		return fmt.Sprintf("%.0f B", b)
	}
	return fmt.Sprintf("%.1f %s", b, units[i])
}

// fmtNum renders a figure with about three significant digits.
func fmtNum(v float64) string {
	a := math.Abs(v)
	switch {
	case v == 0:
		return "0"
	case a >= 1000:
		return fmt.Sprintf("%.0f", v)
	case a >= 100:
		return fmt.Sprintf("%.1f", v)
	case a >= 10:
		return fmt.Sprintf("%.2f", v)
	case a >= 0.01:
		return fmt.Sprintf("%.3f", v)
	}
	return fmt.Sprintf("%.2g", v)
}

// fmtDuration renders d as "1h02m03s", "4m05s" or "6s".
func fmtDuration(d time.Duration) string {
	d = d.Round(time.Second)
	h, m, s := int(d.Hours()), int(d.Minutes())%60, int(d.Seconds())%60
	switch {
	case h > 0:
		return fmt.Sprintf("%dh%02dm%02ds", h, m, s)
	case m > 0:
		return fmt.Sprintf("%dm%02ds", m, s)
	}
	return fmt.Sprintf("%ds", s)
}

// Ratio compares a peer's figure with strata's. For throughput-like figures
// (higher is better) pass higherBetter: a peer with half strata's TPS is
// "2.00× slower". For latency and cost figures, a peer with twice strata's
// latency is "2.00× slower" (or, with the words "more"/"less", twice the
// bytes is "2.00× more").
func Ratio(strata, peer float64, higherBetter bool, worse, better string) string {
	if strata <= 0 || peer <= 0 || math.IsNaN(strata) || math.IsNaN(peer) {
		return "n/a"
	}
	r := peer / strata // > 1: peer has more
	peerWorse := r > 1
	if higherBetter {
		peerWorse = r < 1
	}
	f := r
	if f < 1 {
		f = 1 / f
	}
	if f < 1.005 {
		return "same"
	}
	if peerWorse {
		return fmt.Sprintf("%.2f× %s", f, worse)
	}
	return fmt.Sprintf("%.2f× %s", f, better)
}
