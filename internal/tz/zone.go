// Package tz resolves MySQL time zone names (the time_zone variable,
// CONVERT_TZ) and converts TIMESTAMP values between a session's time zone
// and UTC, the form TIMESTAMP columns are stored in.
//
// # Basics
//
//   - Resolve turns a time_zone value into a *Zone: 'SYSTEM' (the server's
//     local zone), an offset '[+-]h:mm' from '-13:59' to '+14:00', or a
//     name of the system zoneinfo database ('UTC', 'Europe/Paris'; letter
//     case is ignored, as MySQL's time zone tables do). Zones are immutable
//     and cached process-wide.
//   - Zone.Instants maps a local wall-clock time to the UTC instants that
//     show it: none in a spring-forward gap, two in a fall-back overlap.
//     Zone.ToUnix takes MySQL's choice: the earlier instant of an overlap,
//     the transition instant for a time in a gap.
//   - AppendUTC and AppendLocal convert the canonical DATETIME text
//     ("YYYY-MM-DD hh:mm:ss[.ffffff]") of a TIMESTAMP value.
//
// # Caveats
//
//   - Leap seconds are not modelled (MySQL ignores them unless its time
//     zone tables have them).
//   - A zone with two transitions less than a day apart may map a local
//     time to an instant other than MySQL's; tzdata has none since 1970.
package tz

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// Zone is a resolved time zone.
type Zone struct {
	name string
	loc  *time.Location
	// fixed: the zone has one offset forever (offset, in seconds east of
	// UTC); conversions are additions.
	fixed  bool
	offset int64
}

// UTC is the zone with offset zero.
var UTC = newZone("UTC", time.UTC)

func newZone(name string, loc *time.Location) *Zone {
	z := Of(loc)
	z.name = name
	return &z
}

// Of returns the zone of a Go location, for code that holds one (the
// session time of expression evaluation).
func Of(loc *time.Location) Zone {
	z := Zone{name: loc.String(), loc: loc}
	// ZoneBounds returns zero times for a period without transitions on
	// either side: the zone never changes its offset.
	at := time.Unix(0, 0).In(loc)
	if start, end := at.ZoneBounds(); start.IsZero() && end.IsZero() {
		_, off := at.Zone()
		z.fixed, z.offset = true, int64(off)
	}
	return z
}

// Name is the zone as @@time_zone shows it.
func (z *Zone) Name() string { return z.name }

// Location is the zone as a Go location (for NOW() and the like).
func (z *Zone) Location() *time.Location { return z.loc }

// IsUTC reports whether local time is UTC at every instant, so that
// TIMESTAMP values need no conversion.
func (z *Zone) IsUTC() bool { return z.fixed && z.offset == 0 }

// Fixed reports whether the zone has one offset forever: local time is
// then a monotonic, one-to-one image of UTC.
func (z *Zone) Fixed() bool { return z.fixed }

// ErrUnknown is returned by Resolve for a name it cannot resolve.
var ErrUnknown = errors.New("unknown or incorrect time zone")

// zones caches resolved zones by the name asked for.
var zones struct {
	sync.RWMutex
	byName map[string]*Zone
	// folded maps lower-cased zoneinfo names to their spelling on disk,
	// read once on the first name that does not load as given.
	folded map[string]string
}

// ZoneinfoDir is where named zones are looked up case-insensitively (Go's
// time.LoadLocation finds names spelled exactly by itself).
var ZoneinfoDir = "/usr/share/zoneinfo"

// Resolve returns the zone a time_zone value names, or ErrUnknown.
func Resolve(name string) (*Zone, error) {
	zones.RLock()
	z := zones.byName[name]
	zones.RUnlock()
	if z != nil {
		return z, nil
	}
	zones.Lock()
	defer zones.Unlock()
	if z := zones.byName[name]; z != nil {
		return z, nil // resolved by another caller meanwhile
	}
	z, err := resolveLocked(name)
	if err != nil {
		return nil, err
	}
	if zones.byName == nil || len(zones.byName) > 4096 {
		zones.byName = map[string]*Zone{}
	}
	zones.byName[name] = z
	return z, nil
}

func resolveLocked(name string) (*Zone, error) {
	if strings.EqualFold(name, "SYSTEM") {
		return newZone("SYSTEM", time.Local), nil
	}
	if len(name) > 0 && (name[0] == '+' || name[0] == '-') {
		off, ok := parseOffset(name)
		if !ok {
			return nil, ErrUnknown
		}
		return newZone(FormatOffset(off), time.FixedZone(FormatOffset(off), int(off))), nil
	}
	if name == "" || strings.Contains(name, "..") || strings.HasPrefix(name, "/") {
		return nil, ErrUnknown
	}
	if loc, err := time.LoadLocation(name); err == nil && name != "Local" {
		return newZone(name, loc), nil
	}
	if zones.folded == nil {
		zones.folded = readZoneNames(ZoneinfoDir)
	}
	if real, ok := zones.folded[strings.ToLower(name)]; ok {
		if loc, err := time.LoadLocation(real); err == nil {
			return newZone(real, loc), nil
		}
	}
	return nil, ErrUnknown
}

// readZoneNames lists the zone files under dir by their lower-cased names.
func readZoneNames(dir string) map[string]string {
	out := map[string]string{}
	_ = filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		rel, err := filepath.Rel(dir, path)
		if err == nil {
			out[strings.ToLower(rel)] = rel
		}
		return nil
	})
	return out
}

// parseOffset parses MySQL's '[+-]h:mm' (one or more hour digits, minutes
// below 60, from -13:59 to +14:00) into seconds east of UTC.
func parseOffset(s string) (int64, bool) {
	if len(s) < 4 {
		return 0, false
	}
	neg := s[0] == '-'
	i := 1
	h, m := 0, 0
	for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		h = h*10 + int(s[i]-'0')
		if h > 99 {
			return 0, false
		}
	}
	if i+1 >= len(s) || s[i] != ':' || i == 1 {
		return 0, false
	}
	i++
	for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		m = m*10 + int(s[i]-'0')
		if m > 59 {
			return 0, false
		}
	}
	if i != len(s) {
		return 0, false
	}
	off := int64(h*3600 + m*60)
	if neg {
		off = -off
	}
	if off < -(13*3600+59*60) || off > 14*3600 {
		return 0, false
	}
	return off, true
}

// FormatOffset prints an offset in seconds as MySQL's '+hh:mm'.
func FormatOffset(off int64) string {
	sign := byte('+')
	if off < 0 {
		sign, off = '-', -off
	}
	h, m := off/3600, off/60%60
	return string([]byte{sign, byte('0' + h/10), byte('0' + h%10), ':', byte('0' + m/10), byte('0' + m%10)})
}

// offsetAt is the zone's offset at the instant unix.
func (z *Zone) offsetAt(unix int64) int64 {
	if z.fixed {
		return z.offset
	}
	_, off := time.Unix(unix, 0).In(z.loc).Zone()
	return int64(off)
}

// FromUnix returns the local wall-clock time (seconds since the epoch as
// if local time were UTC) of the instant unix.
func (z *Zone) FromUnix(unix int64) int64 { return unix + z.offsetAt(unix) }

// Instants returns the UTC instants whose local time is wall (seconds
// since the epoch as if local time were UTC): n is 1 normally, 2 in a
// fall-back overlap (first < last) and 0 in a spring-forward gap, where
// first = last is the transition instant (the first one after the gap).
func (z *Zone) Instants(wall int64) (first, last int64, n int) {
	if z.fixed {
		u := wall - z.offset
		return u, u, 1
	}
	// The solutions lie in the period of a first guess or next to it.
	g := wall - z.offsetAt(wall)
	start, end := time.Unix(g, 0).In(z.loc).ZoneBounds()
	var cands [3]int64
	nc := 0
	cands[nc] = z.offsetAt(g)
	nc++
	if !start.IsZero() {
		cands[nc] = z.offsetAt(start.Unix() - 1)
		nc++
	}
	if !end.IsZero() {
		cands[nc] = z.offsetAt(end.Unix())
		nc++
	}
	minOff := cands[0]
	for _, o := range cands[:nc] {
		minOff = min(minOff, o)
		u := wall - o
		if z.offsetAt(u) != o {
			continue
		}
		switch {
		case n == 0:
			first, last = u, u
			n = 1
		case u < first:
			first, n = u, 2
		case u > last:
			last, n = u, 2
		}
	}
	if n > 0 {
		return first, last, n
	}
	// A gap: the instant wall - minOff lies after the transition, in the
	// period that starts with it.
	s, _ := time.Unix(wall-minOff, 0).In(z.loc).ZoneBounds()
	t := s.Unix()
	return t, t, 0
}

// ToUnix returns the instant MySQL stores for the local time wall: the
// earlier of two in an overlap, the transition instant for a time in a gap
// (gap reports that case, which MySQL warns about).
func (z *Zone) ToUnix(wall int64) (unix int64, gap bool) {
	first, _, n := z.Instants(wall)
	return first, n == 0
}
