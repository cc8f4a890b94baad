package tz

import (
	"errors"
	"testing"
	"time"
)

func TestResolve(t *testing.T) {
	for _, c := range []struct{ in, name string }{
		{"SYSTEM", "SYSTEM"}, {"system", "SYSTEM"}, {"UTC", "UTC"},
		{"+00:00", "+00:00"}, {"+5:00", "+05:00"}, {"-13:59", "-13:59"}, {"+14:00", "+14:00"},
		{"America/New_York", "America/New_York"}, {"america/new_york", "America/New_York"},
	} {
		z, err := Resolve(c.in)
		if err != nil {
			t.Fatalf("Resolve(%q): %v", c.in, err)
		}
		if z.Name() != c.name {
			t.Errorf("Resolve(%q).Name() = %q, want %q", c.in, z.Name(), c.name)
		}
	}
	for _, bad := range []string{"", "Nowhere/Bogus", "+14:01", "-14:00", "+05:60", "+0500", "05:00", "+:00", "Local", "../etc/passwd", "/etc/localtime"} {
		if _, err := Resolve(bad); !errors.Is(err, ErrUnknown) {
			t.Errorf("Resolve(%q) = %v, want ErrUnknown", bad, err)
		}
	}
	if z, _ := Resolve("+00:00"); !z.IsUTC() {
		t.Errorf("+00:00 is not UTC")
	}
	if z, _ := Resolve("America/New_York"); z.Fixed() {
		t.Errorf("America/New_York is fixed")
	}
}

func TestWallCivil(t *testing.T) {
	for _, u := range []int64{-86400 * 800, -1, 0, 1, 951782400, 2147483647, 253402300799} {
		want := time.Unix(u, 0).UTC()
		y, mo, d, h, mi, s := Civil(u)
		if y != want.Year() || mo != int(want.Month()) || d != want.Day() || h != want.Hour() || mi != want.Minute() || s != want.Second() {
			t.Errorf("Civil(%d) = %d-%d-%d %d:%d:%d, want %v", u, y, mo, d, h, mi, s, want)
		}
		if w := Wall(y, mo, d, h, mi, s); w != u {
			t.Errorf("Wall(Civil(%d)) = %d", u, w)
		}
	}
}

// New York, 2020: clocks went forward at 2020-03-08 07:00 UTC (02:00 EST
// became 03:00 EDT) and back at 2020-11-01 06:00 UTC (02:00 EDT became
// 01:00 EST). MySQL (checked on MariaDB's copy of its algorithm) maps
// 01:30 on 1 November to the earlier instant and 02:30 on 8 March to the
// transition.
func TestInstantsDST(t *testing.T) {
	z, err := Resolve("America/New_York")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		local       string
		first, last int64
		n           int
	}{
		{"2020-11-01 01:30:00", 1604208600, 1604212200, 2},
		{"2020-11-01 00:59:59", 1604206799, 1604206799, 1},
		{"2020-11-01 02:00:00", 1604214000, 1604214000, 1},
		{"2020-03-08 02:30:00", 1583650800, 1583650800, 0},
		{"2020-03-08 03:00:00", 1583650800, 1583650800, 1},
		{"2020-03-08 01:59:59", 1583650799, 1583650799, 1},
		{"2020-07-01 12:00:00", 1593619200, 1593619200, 1},
	} {
		wall, _, _, _ := parseText([]byte(c.local))
		first, last, n := z.Instants(wall)
		if first != c.first || last != c.last || n != c.n {
			t.Errorf("Instants(%s) = %d, %d, %d; want %d, %d, %d", c.local, first, last, n, c.first, c.last, c.n)
		}
	}
}

func TestAppend(t *testing.T) {
	ny, _ := Resolve("America/New_York")
	plus5, _ := Resolve("+05:00")
	for _, c := range []struct {
		z          *Zone
		local, utc string
		gap        bool
	}{
		{plus5, "2020-01-01 03:00:00", "2019-12-31 22:00:00", false},
		{plus5, "2020-01-01 03:00:00.123456", "2019-12-31 22:00:00.123456", false},
		{ny, "2020-11-01 01:30:00", "2020-11-01 05:30:00", false},
		{ny, "2020-03-08 02:30:00.5", "2020-03-08 07:00:00.5", true},
		{ny, "0000-00-00 00:00:00", "0000-00-00 00:00:00", false},
	} {
		got, gap, ok := c.z.AppendUTC(nil, []byte(c.local))
		if !ok || string(got) != c.utc || gap != c.gap {
			t.Errorf("%s AppendUTC(%s) = %s, %v, %v; want %s, %v", c.z.Name(), c.local, got, gap, ok, c.utc, c.gap)
		}
	}
	// Reading: both instants of the overlap show 01:30.
	for _, utc := range []string{"2020-11-01 05:30:00", "2020-11-01 06:30:00"} {
		got, ok := ny.AppendLocal(nil, []byte(utc))
		if !ok || string(got) != "2020-11-01 01:30:00" {
			t.Errorf("AppendLocal(%s) = %s, %v", utc, got, ok)
		}
	}
	if _, _, ok := ny.AppendUTC(nil, []byte("2020-11-01")); ok {
		t.Errorf("AppendUTC accepted a date")
	}
}

// Index bounds hold every instant the local range shows, across the
// overlap: BETWEEN '01:15' AND '01:45' on 1 November covers both hours.
func TestAppendBound(t *testing.T) {
	ny, _ := Resolve("America/New_York")
	lo, _ := ny.AppendBound(nil, []byte("2020-11-01 01:15:00"), false)
	hi, _ := ny.AppendBound(nil, []byte("2020-11-01 01:45:00"), true)
	if string(lo) != "2020-11-01 05:15:00" || string(hi) != "2020-11-01 06:45:00" {
		t.Errorf("bounds = %s .. %s", lo, hi)
	}
	lo, _ = ny.AppendBound(nil, []byte("2020-03-08 02:10:00"), false)
	hi, _ = ny.AppendBound(nil, []byte("2020-03-08 02:50:00"), true)
	if string(lo) != "2020-03-08 07:00:00" || string(hi) != "2020-03-08 07:00:00" {
		t.Errorf("gap bounds = %s .. %s", lo, hi)
	}
}

func BenchmarkAppendLocal(b *testing.B) {
	ny, _ := Resolve("America/New_York")
	buf := make([]byte, 0, 32)
	in := []byte("2020-11-01 05:30:00.123")
	b.ReportAllocs()
	for b.Loop() {
		buf, _ = ny.AppendLocal(buf[:0], in)
	}
}

// Resolve is safe for concurrent use and returns one *Zone per name.
func TestResolveConcurrent(t *testing.T) {
	names := []string{"Europe/Berlin", "+03:00", "asia/tokyo", "SYSTEM"}
	done := make(chan *Zone, 40)
	for i := 0; i < 40; i++ {
		go func(n string) {
			z, err := Resolve(n)
			if err != nil {
				t.Error(err)
			}
			done <- z
		}(names[i%len(names)])
	}
	seen := map[string]*Zone{}
	for i := 0; i < 40; i++ {
		z := <-done
		if p := seen[z.Name()]; p != nil && p != z {
			t.Errorf("two zones for %s", z.Name())
		}
		seen[z.Name()] = z
	}
}
