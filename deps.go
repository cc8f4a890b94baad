package main

import (
	_ "github.com/cockroachdb/pebble/v2"
	_ "github.com/cockroachdb/pebble/v2/vfs/errorfs"
	_ "github.com/go-sql-driver/mysql"
	_ "github.com/google/btree"
	_ "vitess.io/vitess/go/mysql"
	_ "vitess.io/vitess/go/mysql/collations/colldata"
	_ "vitess.io/vitess/go/mysql/datetime"
	_ "vitess.io/vitess/go/mysql/decimal"
	_ "vitess.io/vitess/go/mysql/sqlerror"
	_ "vitess.io/vitess/go/vt/sqlparser"
	_ "vitess.io/vitess/go/vt/vtgate/evalengine"
)

func main() {}
