package sql

import (
	"context"
	"hash/crc32"
	"regexp"
	"strings"

	"vitess.io/vitess/go/sqltypes"
	querypb "vitess.io/vitess/go/vt/proto/query"

	"github.com/strata-db/strata/internal/sql/privilege"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/txn"
)

var reChecksum = regexp.MustCompile(`(?is)^\s*CHECKSUM\s+TABLES?\s+(.+?)(?:\s+(?:QUICK|EXTENDED))?\s*;?\s*$`)

// execChecksumTable implements CHECKSUM TABLE t[, t…]: the sum (mod 2^64)
// of a CRC-32 of each row's values, read at one snapshot. Equal data gives
// equal checksums on strata; the value differs from InnoDB's, whose
// checksum depends on its row format.
func (s *Session) execChecksumTable(ctx context.Context, sql string) (*sqltypes.Result, bool, error) {
	if t := strings.TrimSpace(sql); len(t) < 8 || !strings.EqualFold(t[:8], "checksum") {
		return nil, false, nil
	}
	m := reChecksum.FindStringSubmatch(sql)
	if m == nil {
		return nil, false, nil
	}
	s.countCom(comChecksum)
	res := &sqltypes.Result{Fields: []*querypb.Field{
		{Name: "Table", Type: sqltypes.VarChar, Charset: 33, ColumnLength: 192},
		{Name: "Checksum", Type: sqltypes.Int64, Charset: 63, ColumnLength: 21},
	}}
	type target struct{ db, tbl string }
	var targets []target
	for _, name := range strings.Split(m[1], ",") {
		name = strings.ReplaceAll(strings.TrimSpace(name), "`", "")
		db, tbl, ok := strings.Cut(name, ".")
		if !ok {
			db, tbl = s.DB, name
		}
		targets = append(targets, target{db, tbl})
	}
	// Privileges first, for every table, as MySQL checks them before
	// opening any.
	for _, tg := range targets {
		if tg.db == "" {
			return nil, true, sqlerr.NoDB()
		}
		if err := s.authorizeNeeds(privilege.RuleFor(privilege.KindChecksumTable).Need(tg.db, tg.tbl)); err != nil {
			return nil, true, err
		}
	}
	tx := s.eng.DB.Begin(ctx, txn.RepeatableRead, s.lockTimeout)
	defer tx.Rollback()
	for _, tg := range targets {
		db, tbl := tg.db, tg.tbl
		full := db + "." + tbl
		def := s.tableDef(db, tbl)
		if def == nil {
			s.warn("Error", 1146, "Table '"+full+"' doesn't exist")
			res.Rows = append(res.Rows, Row{sqltypes.NewVarChar(full), sqltypes.NULL})
			continue
		}
		t := s.eng.Store.Open(def)
		sc, err := t.NewScan(tx, def.Primary(), nil, nil, false, false)
		if err != nil {
			return nil, true, err
		}
		var sum uint64
		var buf []byte
		for {
			if err := ctx.Err(); err != nil {
				_ = sc.Close()
				return nil, true, err
			}
			row, _, ok, err := sc.Next()
			if err != nil {
				_ = sc.Close()
				return nil, true, err
			}
			if !ok {
				break
			}
			buf = buf[:0]
			for _, v := range row {
				if v.IsNull() {
					buf = append(buf, 0xff)
					continue
				}
				buf = append(buf, v.Raw()...)
				buf = append(buf, 0)
			}
			sum += uint64(crc32.ChecksumIEEE(buf))
		}
		_ = sc.Close()
		res.Rows = append(res.Rows, Row{sqltypes.NewVarChar(full), sqltypes.NewInt64(int64(sum))})
	}
	return res, true, nil
}
