package bench

import (
	"math"
	"sort"
)

// TrimFraction is the share of per-second samples dropped at each end of a
// run before averaging (warm-up and ramp-down), as the seed study did.
const TrimFraction = 0.10

// Trim returns xs without its first and last frac share of elements
// (rounded down, so short series keep everything). The result aliases xs.
func Trim(xs []float64, frac float64) []float64 {
	k := int(float64(len(xs)) * frac)
	if 2*k >= len(xs) {
		return xs
	}
	return xs[k : len(xs)-k]
}

// Mean is the arithmetic mean of xs, 0 for none.
func Mean(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// TrimmedMean is Mean(Trim(xs, TrimFraction)): the study's figure.
func TrimmedMean(xs []float64) float64 { return Mean(Trim(xs, TrimFraction)) }

// Percentile returns the p-th percentile (0..100) of xs by linear
// interpolation between closest ranks (the method of numpy's default and
// of most spreadsheets); 0 for none. xs is not modified.
func Percentile(xs []float64, p float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if p <= 0 {
		return s[0]
	}
	if p >= 100 {
		return s[len(s)-1]
	}
	r := p / 100 * float64(len(s)-1)
	lo := int(math.Floor(r))
	hi := int(math.Ceil(r))
	return s[lo] + (s[hi]-s[lo])*(r-float64(lo))
}

// Spread is the minimum, median and maximum of repeated measurements.
type Spread struct {
	Min    float64 `json:"min"`
	Median float64 `json:"median"`
	Max    float64 `json:"max"`
	N      int     `json:"n"`
}

// SpreadOf returns the min/median/max of xs (the median of an even count
// is the mean of the middle two).
func SpreadOf(xs []float64) Spread {
	if len(xs) == 0 {
		return Spread{}
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	n := len(s)
	med := s[n/2]
	if n%2 == 0 {
		med = (s[n/2-1] + s[n/2]) / 2
	}
	return Spread{Min: s[0], Median: med, Max: s[n-1], N: n}
}

// HistogramPercentile returns the p-th percentile (0..100) of a latency
// histogram given as ascending bucket values with counts: the smallest
// bucket value at or below which at least p % of the events fall (sysbench
// computes its own percentile the same way). 0 for an empty histogram.
func HistogramPercentile(values []float64, counts []int64, p float64) float64 {
	var total int64
	for _, c := range counts {
		total += c
	}
	if total == 0 {
		return 0
	}
	need := int64(math.Ceil(float64(total) * p / 100))
	if need < 1 {
		need = 1
	}
	var acc int64
	for i, c := range counts {
		acc += c
		if acc >= need {
			return values[i]
		}
	}
	return values[len(values)-1]
}

// HistogramMean is the count-weighted mean of a histogram's bucket values.
func HistogramMean(values []float64, counts []int64) float64 {
	var total int64
	s := 0.0
	for i, c := range counts {
		total += c
		s += values[i] * float64(c)
	}
	if total == 0 {
		return 0
	}
	return s / float64(total)
}
