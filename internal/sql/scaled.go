package sql

import "vitess.io/vitess/go/mysql/decimal"

// Exact decimal sums without big numbers. SUM and AVG over DECIMAL values
// (TPC-H's prices, most money columns) add numbers of at most 18 digits;
// parsing each into an arbitrary-precision decimal allocated three times
// per row and took a fifth of an aggregation's time. While a sum fits in
// an int64 at the largest scale seen, it is kept as sumM × 10^-sumMScale.

// maxScaledDigits is the most digits an int64 mantissa always holds.
const maxScaledDigits = 18

// scaledDecimal parses the text of a decimal number ([-+]digits[.digits])
// into m × 10^-scale; ok is false for other forms (exponents, more than
// maxScaledDigits digits).
func scaledDecimal(b []byte) (m int64, scale int32, ok bool) {
	i, neg := 0, false
	if len(b) > 0 && (b[0] == '-' || b[0] == '+') {
		neg, i = b[0] == '-', 1
	}
	digits, dot := 0, false
	for ; i < len(b); i++ {
		switch c := b[i]; {
		case c >= '0' && c <= '9':
			if digits == maxScaledDigits {
				return 0, 0, false
			}
			digits++
			m = m*10 + int64(c-'0')
			if dot {
				scale++
			}
		case c == '.' && !dot:
			dot = true
		default:
			return 0, 0, false
		}
	}
	if digits == 0 {
		return 0, 0, false
	}
	if neg {
		m = -m
	}
	return m, scale, true
}

// addScaled adds m × 10^-scale to the scaled sum; false when the result
// would not fit in an int64 (the sum is then unchanged in value).
func (st *aggState) addScaled(m int64, scale int32) bool {
	if !st.scaled {
		st.scaled, st.sumM, st.sumMScale = true, m, scale
		return true
	}
	for st.sumMScale < scale {
		if !mulTen(&st.sumM) {
			return false
		}
		st.sumMScale++
	}
	for scale < st.sumMScale {
		if !mulTen(&m) {
			return false
		}
		scale++
	}
	r := st.sumM + m
	if (m > 0 && r < st.sumM) || (m < 0 && r > st.sumM) {
		return false
	}
	st.sumM = r
	return true
}

// scaledSum is the scaled sum as a decimal.
func (st *aggState) scaledSum() decimal.Decimal { return decimal.New(st.sumM, -st.sumMScale) }

// mulTen multiplies *x by ten unless that overflows.
func mulTen(x *int64) bool {
	const limit = (1<<63 - 1) / 10
	if *x > limit || *x < -limit {
		return false
	}
	*x *= 10
	return true
}
