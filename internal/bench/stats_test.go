package bench

import (
	"math"
	"testing"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestTrim(t *testing.T) {
	xs := []float64{100, 1, 2, 3, 4, 5, 6, 7, 8, -100} // 10 samples: drop 1 at each end
	got := Trim(xs, TrimFraction)
	if len(got) != 8 || got[0] != 1 || got[7] != 8 {
		t.Fatalf("Trim = %v", got)
	}
	if m := TrimmedMean(xs); !near(m, 4.5) {
		t.Fatalf("TrimmedMean = %v, want 4.5", m)
	}
	// 9 samples: 10 % of 9 rounds down to 0 → nothing dropped.
	if got := Trim(xs[:9], TrimFraction); len(got) != 9 {
		t.Fatalf("Trim of 9 = %d elements, want 9", len(got))
	}
	// 20 samples: 2 dropped at each end.
	var ys []float64
	for i := 0; i < 20; i++ {
		ys = append(ys, float64(i))
	}
	if got := Trim(ys, TrimFraction); len(got) != 16 || got[0] != 2 || got[15] != 17 {
		t.Fatalf("Trim of 20 = %v", got)
	}
	if TrimmedMean(nil) != 0 {
		t.Fatal("TrimmedMean(nil) != 0")
	}
}

func TestPercentile(t *testing.T) {
	xs := []float64{5, 1, 4, 2, 3} // sorted: 1 2 3 4 5
	for _, c := range []struct{ p, want float64 }{
		{0, 1}, {50, 3}, {100, 5}, {25, 2}, {95, 4.8}, {99, 4.96},
	} {
		if got := Percentile(xs, c.p); !near(got, c.want) {
			t.Errorf("Percentile(%v) = %v, want %v", c.p, got, c.want)
		}
	}
	if xs[0] != 5 {
		t.Fatal("Percentile sorted its input")
	}
	if Percentile(nil, 50) != 0 {
		t.Fatal("Percentile(nil) != 0")
	}
}

func TestSpreadOf(t *testing.T) {
	if s := SpreadOf([]float64{3, 1, 2}); s != (Spread{Min: 1, Median: 2, Max: 3, N: 3}) {
		t.Fatalf("odd: %+v", s)
	}
	if s := SpreadOf([]float64{4, 1, 2, 10}); s != (Spread{Min: 1, Median: 3, Max: 10, N: 4}) {
		t.Fatalf("even: %+v", s)
	}
	if s := SpreadOf(nil); s.N != 0 {
		t.Fatalf("empty: %+v", s)
	}
}

func TestHistogram(t *testing.T) {
	values := []float64{1, 2, 3, 10}
	counts := []int64{50, 40, 9, 1} // 100 events
	for _, c := range []struct{ p, want float64 }{{50, 1}, {51, 2}, {90, 2}, {95, 3}, {99, 3}, {99.5, 10}, {100, 10}} {
		if got := HistogramPercentile(values, counts, c.p); got != c.want {
			t.Errorf("HistogramPercentile(%v) = %v, want %v", c.p, got, c.want)
		}
	}
	if m := HistogramMean(values, counts); !near(m, (50+80+27+10)/100.0) {
		t.Errorf("HistogramMean = %v", m)
	}
	if HistogramPercentile(nil, nil, 99) != 0 {
		t.Error("empty histogram")
	}
}

func TestRatio(t *testing.T) {
	for _, c := range []struct {
		strata, peer float64
		higher       bool
		want         string
	}{
		{1000, 500, true, "2.00× slower"},  // peer has half the TPS
		{1000, 2000, true, "2.00× faster"}, // peer has twice the TPS
		{2, 6, false, "3.00× slower"},      // peer has 3× the latency
		{2, 1, false, "2.00× faster"},
		{2, 2.001, false, "same"},
		{0, 1, true, "n/a"},
	} {
		if got := Ratio(c.strata, c.peer, c.higher, "slower", "faster"); got != c.want {
			t.Errorf("Ratio(%v, %v, %v) = %q, want %q", c.strata, c.peer, c.higher, got, c.want)
		}
	}
}
