package evalengine

import (
	"time"

	"vitess.io/vitess/go/mysql/datetime"

	"github.com/strata-db/strata/internal/tz"
)

// strata: time zones as MySQL has them. Zone names resolve through
// internal/tz (SYSTEM, '[+-]h:mm' from -13:59 to +14:00, zoneinfo names in
// any letter case; cached), and a local time maps to an instant by MySQL's
// rule (tz.Zone.ToUnix: the earlier instant of a fall-back overlap, the
// transition for a time in a spring-forward gap), not Go's time.Date,
// which picks either.

// parseTimeZone resolves a CONVERT_TZ zone argument.
func parseTimeZone(name string) (*time.Location, error) {
	z, err := tz.Resolve(name)
	if err != nil {
		return nil, err
	}
	return z.Location(), nil
}

// localToStd is dt, a local time of now's location, as an instant.
func localToStd(dt datetime.DateTime, now time.Time) time.Time {
	if dt.Date.IsZero() {
		return dt.ToStdTime(now)
	}
	z := tz.Of(now.Location())
	wall := tz.Wall(dt.Date.Year(), int(dt.Date.Month()), dt.Date.Day(), dt.Time.Hour(), dt.Time.Minute(), dt.Time.Second())
	u, _ := z.ToUnix(wall)
	return time.Unix(u, int64(dt.Time.Nanosecond())).In(now.Location())
}

// convertTz converts dt from one zone's local time to another's; a time
// whose instant is outside the TIMESTAMP range is returned unchanged, as
// MySQL does.
func convertTz(dt datetime.DateTime, from, to *time.Location) (datetime.DateTime, bool) {
	if dt.Date.IsZero() {
		return dt, true
	}
	fz, tzz := tz.Of(from), tz.Of(to)
	u, _ := fz.ToUnix(tz.Wall(dt.Date.Year(), int(dt.Date.Month()), dt.Date.Day(), dt.Time.Hour(), dt.Time.Minute(), dt.Time.Second()))
	if u < 0 || u >= maxUnixtime {
		return dt, true
	}
	wall := tzz.FromUnix(u)
	return datetime.NewDateTimeFromStd(time.Unix(wall, int64(dt.Time.Nanosecond())).UTC()), true
}
