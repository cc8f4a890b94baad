package vtable

import (
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"
	"time"

	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/catalog"
)

// information_schema.COLUMN_STATISTICS: the histograms ANALYZE TABLE ...
// UPDATE HISTOGRAM made, in MySQL 8's JSON form.

// columnStatisticsRows lists the explicit histograms
// (information_schema.COLUMN_STATISTICS).
func columnStatisticsRows(src Source, out *Rows) error {
	cat := src.Catalog()
	userTables(src, func(db string, t *catalog.Table) {
		st := cat.Stats(t)
		if st == nil {
			return
		}
		for i := range t.Columns {
			if h := st.Histogram(i); h != nil && h.Explicit {
				out.Add(db, t.Name, t.Columns[i].Name, histogramJSON(&t.Columns[i], h))
			}
		}
	})
	return nil
}

// histogramJSON renders a histogram as MySQL 8 shows it in
// COLUMN_STATISTICS.HISTOGRAM (keys in MySQL's JSON order: by length,
// then alphabetically).
func histogramJSON(col *catalog.Column, h *catalog.Histogram) string {
	dt := histogramDataType(col)
	var b strings.Builder
	b.WriteString(`{"buckets": [`)
	single := h.Singleton()
	for i, bk := range h.Buckets {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteByte('[')
		b.WriteString(histogramValue(dt, bk.LowerValue))
		if !single {
			b.WriteString(", ")
			b.WriteString(histogramValue(dt, bk.UpperValue))
		}
		b.WriteString(", ")
		b.WriteString(jsonDouble(bk.Cumulative))
		if !single {
			b.WriteString(", ")
			b.WriteString(strconv.FormatInt(bk.Distinct, 10))
		}
		b.WriteByte(']')
	}
	typ := "equi-height"
	if single {
		typ = "singleton"
	}
	coll := 8 // MySQL's collation-id of non-string columns
	if dt == "string" {
		coll = int(col.Collation)
	}
	updated := time.UnixMicro(h.LastUpdated).UTC().Format("2006-01-02 15:04:05.000000")
	fmt.Fprintf(&b, `], "data-type": %q, "null-values": %s, "collation-id": %d, "last-updated": %q, "sampling-rate": %s, "histogram-type": %q, "number-of-buckets-specified": %d}`,
		dt, jsonDouble(h.NullFraction), coll, updated, jsonDouble(h.SampleRate), typ, h.BucketsSpecified)
	return b.String()
}

// histogramDataType is MySQL's data-type of a histogram.
func histogramDataType(col *catalog.Column) string {
	switch {
	case sqltypes.IsSigned(col.Type):
		return "int"
	case sqltypes.IsUnsigned(col.Type):
		return "uint"
	case sqltypes.IsFloat(col.Type):
		return "double"
	case col.Type == sqltypes.Decimal:
		return "decimal"
	case col.Type == sqltypes.Date:
		return "date"
	case col.Type == sqltypes.Time:
		return "time"
	case col.Type == sqltypes.Datetime, col.Type == sqltypes.Timestamp:
		return "datetime"
	}
	return "string"
}

// histogramValue renders a bucket bound as MySQL does: numbers bare,
// temporal values quoted, strings as "base64:type254:…".
func histogramValue(dt, v string) string {
	switch dt {
	case "int", "uint", "double", "decimal":
		return v
	case "date", "time", "datetime":
		if dt != "date" {
			// Always six fractional digits.
			frac := 0
			if i := strings.IndexByte(v, '.'); i >= 0 {
				frac = len(v) - i - 1
			} else {
				v += "."
			}
			v += strings.Repeat("0", max(0, 6-frac))
		}
		return strconv.Quote(v)
	}
	return `"base64:type254:` + base64.StdEncoding.EncodeToString([]byte(v)) + `"`
}

// jsonDouble formats a double as MySQL's JSON does (1.0, not 1).
func jsonDouble(f float64) string {
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if !strings.ContainsAny(s, ".eEn") {
		s += ".0"
	}
	return s
}
