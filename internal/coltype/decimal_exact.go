package coltype

import "vitess.io/vitess/go/sqltypes"

// exactDecimal converts an integer or DECIMAL value that fits DECIMAL(m,d)
// exactly — no digit lost, no rounding, in range — by rewriting its text,
// with one allocation (the general path parses into a big-integer decimal,
// rounds and prints, about six). ok is false for anything else (text,
// floating point, a value with more significant fraction digits than d, out
// of range, negative for an UNSIGNED column), which the general path
// converts with its notes and errors.
func exactDecimal(v sqltypes.Value, m, d int, unsigned bool) (out sqltypes.Value, ok bool) {
	t := v.Type()
	// Text in plain decimal notation (LOAD DATA's fields, string
	// literals) converts as the same digits typed DECIMAL do.
	if t != sqltypes.Decimal && !sqltypes.IsIntegral(t) && t != sqltypes.VarChar && t != sqltypes.Char && t != sqltypes.VarBinary && t != sqltypes.Text {
		return sqltypes.Value{}, false
	}
	if d < 0 {
		d = 0
	}
	s := v.Raw()
	neg := len(s) > 0 && s[0] == '-'
	if neg {
		s = s[1:]
	}
	intPart, frac := s, []byte(nil)
	for i, ch := range s {
		if ch == '.' {
			intPart, frac = s[:i], s[i+1:]
			break
		}
	}
	if len(intPart) == 0 && len(frac) == 0 || !allDigits(intPart) || !allDigits(frac) {
		return sqltypes.Value{}, false
	}
	for len(intPart) > 0 && intPart[0] == '0' {
		intPart = intPart[1:]
	}
	if len(intPart) > m-d {
		return sqltypes.Value{}, false
	}
	if len(frac) > d {
		for _, ch := range frac[d:] {
			if ch != '0' {
				return sqltypes.Value{}, false
			}
		}
		frac = frac[:d]
	}
	zero := len(intPart) == 0 && allZeros(frac)
	if neg && !zero && unsigned {
		return sqltypes.Value{}, false
	}
	b := make([]byte, 0, 2+len(intPart)+d)
	if neg && !zero {
		b = append(b, '-')
	}
	if len(intPart) == 0 {
		b = append(b, '0')
	}
	b = append(b, intPart...)
	if d > 0 {
		b = append(b, '.')
		b = append(b, frac...)
		for i := len(frac); i < d; i++ {
			b = append(b, '0')
		}
	}
	return sqltypes.MakeTrusted(sqltypes.Decimal, b), true
}

func allDigits(b []byte) bool {
	for _, ch := range b {
		if ch < '0' || ch > '9' {
			return false
		}
	}
	return true
}

func allZeros(b []byte) bool {
	for _, ch := range b {
		if ch != '0' {
			return false
		}
	}
	return true
}
