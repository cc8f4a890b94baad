package sql

import (
	"time"

	querypb "vitess.io/vitess/go/vt/proto/query"

	"github.com/strata-db/strata/internal/third_party/evalengine"
)

func timeSince(t time.Time) time.Duration { return time.Since(t) }

func unixTime(sec int64) string {
	if sec == 0 {
		return nullStr
	}
	return time.Unix(sec, 0).Format("2006-01-02 15:04:05")
}

func typeFromField(f *querypb.Field) evalengine.Type {
	return evalengine.NewTypeFromField(f)
}
