package tz

// Conversions of the canonical DATETIME text of TIMESTAMP values:
//
//	value = date ' ' clock [ '.' digits ]
//	date  = YYYY '-' MM '-' DD        clock = hh ':' mm ':' ss
//
// The fraction is carried over unchanged (zone offsets are whole seconds).
// The zero value '0000-00-00 00:00:00' is the same in every zone.

// Wall returns the seconds since the epoch of a civil date and time taken
// as UTC (days from civil, proleptic Gregorian calendar).
func Wall(year, month, day, hour, minute, second int) int64 {
	y := int64(year)
	if month <= 2 {
		y--
	}
	era := y / 400
	if y < 0 && y%400 != 0 {
		era--
	}
	yoe := y - era*400
	m := int64(month)
	var mp int64
	if m > 2 {
		mp = m - 3
	} else {
		mp = m + 9
	}
	doy := (153*mp+2)/5 + int64(day) - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	days := era*146097 + doe - 719468
	return days*86400 + int64(hour)*3600 + int64(minute)*60 + int64(second)
}

// Civil is the inverse of Wall.
func Civil(wall int64) (year, month, day, hour, minute, second int) {
	days := wall / 86400
	secs := wall % 86400
	if secs < 0 {
		secs += 86400
		days--
	}
	z := days + 719468
	era := z / 146097
	if z < 0 && z%146097 != 0 {
		era--
	}
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	y := yoe + era*400
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d := doy - (153*mp+2)/5 + 1
	m := mp + 3
	if mp >= 10 {
		m = mp - 9
	}
	if m <= 2 {
		y++
	}
	return int(y), int(m), int(d), int(secs / 3600), int(secs / 60 % 60), int(secs % 60)
}

// parseText reads the date and clock of a canonical datetime text; rest is
// the fraction ("" or ".ffffff"). ok is false for text of another shape.
func parseText(b []byte) (wall int64, rest []byte, zero, ok bool) {
	if len(b) < 19 || b[4] != '-' || b[7] != '-' || b[10] != ' ' || b[13] != ':' || b[16] != ':' {
		return 0, nil, false, false
	}
	var f [6]int
	pos := [6][2]int{{0, 4}, {5, 7}, {8, 10}, {11, 13}, {14, 16}, {17, 19}}
	for i, p := range pos {
		n := 0
		for _, c := range b[p[0]:p[1]] {
			if c < '0' || c > '9' {
				return 0, nil, false, false
			}
			n = n*10 + int(c-'0')
		}
		f[i] = n
	}
	if f[0] == 0 && f[1] == 0 && f[2] == 0 {
		return 0, b[19:], true, true
	}
	return Wall(f[0], f[1], f[2], f[3], f[4], f[5]), b[19:], false, true
}

// appendText appends wall as canonical datetime text followed by rest.
func appendText(dst []byte, wall int64, rest []byte) []byte {
	y, mo, d, h, mi, s := Civil(wall)
	dst = append(dst,
		byte('0'+y/1000%10), byte('0'+y/100%10), byte('0'+y/10%10), byte('0'+y%10), '-',
		byte('0'+mo/10), byte('0'+mo%10), '-', byte('0'+d/10), byte('0'+d%10), ' ',
		byte('0'+h/10), byte('0'+h%10), ':', byte('0'+mi/10), byte('0'+mi%10), ':',
		byte('0'+s/10), byte('0'+s%10))
	return append(dst, rest...)
}

// AppendUTC appends the UTC form of the local datetime text local (MySQL's
// choice of instant: ToUnix). ok is false when local is not canonical
// datetime text (dst is returned unchanged).
func (z *Zone) AppendUTC(dst, local []byte) (out []byte, gap, ok bool) {
	wall, rest, zero, ok := parseText(local)
	if !ok {
		return dst, false, false
	}
	if zero {
		return append(dst, local...), false, true
	}
	u, gap := z.ToUnix(wall)
	return appendText(dst, u, rest), gap, true
}

// AppendLocal appends the local form of the UTC datetime text utc. ok is
// false when utc is not canonical datetime text.
func (z *Zone) AppendLocal(dst, utc []byte) (out []byte, ok bool) {
	u, rest, zero, ok := parseText(utc)
	if !ok {
		return dst, false
	}
	if zero {
		return append(dst, utc...), true
	}
	return appendText(dst, z.FromUnix(u), rest), true
}

// AppendBound appends the UTC form of local as an index range bound: the
// first instant whose local time is at least local (lower bound) or the
// last whose local time is at most local (upper), so the UTC range holds
// every instant the local range does. Local time is not monotonic across
// a fall-back, so the UTC range may hold more: the caller re-checks.
func (z *Zone) AppendBound(dst, local []byte, upper bool) ([]byte, bool) {
	wall, rest, zero, ok := parseText(local)
	if !ok {
		return dst, false
	}
	if zero {
		return append(dst, local...), true
	}
	// In a gap both bounds are the transition instant: the range then
	// holds no instant showing local, plus at most the transition itself.
	first, last, _ := z.Instants(wall)
	u := first
	if upper {
		u = last
	}
	return appendText(dst, u, rest), true
}

// AppendKey appends the UTC form of local for an equality lookup: unique
// is false when local shows no instant (a gap) or two (an overlap), so that
// one key cannot find exactly the values that read as local.
func (z *Zone) AppendKey(dst, local []byte) (out []byte, unique, ok bool) {
	wall, rest, zero, ok := parseText(local)
	if !ok {
		return dst, false, false
	}
	if zero {
		return append(dst, local...), true, true
	}
	first, _, n := z.Instants(wall)
	return appendText(dst, first, rest), n == 1, true
}
