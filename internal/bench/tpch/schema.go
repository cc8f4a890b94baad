package tpch

import (
	"context"
	"database/sql"
	"strings"

	"github.com/strata-db/strata/internal/bench/query"
)

// Schema creates the eight tables with their primary keys and an index on
// every foreign key not covered by a primary key's prefix — indexes the
// specification allows. The tables name no storage engine, so
// each server's default engine holds them.
var Schema = []string{
	`CREATE TABLE region (
		r_regionkey INT NOT NULL,
		r_name CHAR(25) NOT NULL,
		r_comment VARCHAR(152),
		PRIMARY KEY (r_regionkey)
	)`,
	`CREATE TABLE nation (
		n_nationkey INT NOT NULL,
		n_name CHAR(25) NOT NULL,
		n_regionkey INT NOT NULL,
		n_comment VARCHAR(152),
		PRIMARY KEY (n_nationkey),
		KEY n_regionkey (n_regionkey)
	)`,
	`CREATE TABLE supplier (
		s_suppkey INT NOT NULL,
		s_name CHAR(25) NOT NULL,
		s_address VARCHAR(40) NOT NULL,
		s_nationkey INT NOT NULL,
		s_phone CHAR(15) NOT NULL,
		s_acctbal DECIMAL(15,2) NOT NULL,
		s_comment VARCHAR(101) NOT NULL,
		PRIMARY KEY (s_suppkey),
		KEY s_nationkey (s_nationkey)
	)`,
	`CREATE TABLE customer (
		c_custkey INT NOT NULL,
		c_name VARCHAR(25) NOT NULL,
		c_address VARCHAR(40) NOT NULL,
		c_nationkey INT NOT NULL,
		c_phone CHAR(15) NOT NULL,
		c_acctbal DECIMAL(15,2) NOT NULL,
		c_mktsegment CHAR(10) NOT NULL,
		c_comment VARCHAR(117) NOT NULL,
		PRIMARY KEY (c_custkey),
		KEY c_nationkey (c_nationkey)
	)`,
	`CREATE TABLE part (
		p_partkey INT NOT NULL,
		p_name VARCHAR(55) NOT NULL,
		p_mfgr CHAR(25) NOT NULL,
		p_brand CHAR(10) NOT NULL,
		p_type VARCHAR(25) NOT NULL,
		p_size INT NOT NULL,
		p_container CHAR(10) NOT NULL,
		p_retailprice DECIMAL(15,2) NOT NULL,
		p_comment VARCHAR(23) NOT NULL,
		PRIMARY KEY (p_partkey)
	)`,
	`CREATE TABLE partsupp (
		ps_partkey INT NOT NULL,
		ps_suppkey INT NOT NULL,
		ps_availqty INT NOT NULL,
		ps_supplycost DECIMAL(15,2) NOT NULL,
		ps_comment VARCHAR(199) NOT NULL,
		PRIMARY KEY (ps_partkey, ps_suppkey),
		KEY ps_suppkey (ps_suppkey)
	)`,
	`CREATE TABLE orders (
		o_orderkey INT NOT NULL,
		o_custkey INT NOT NULL,
		o_orderstatus CHAR(1) NOT NULL,
		o_totalprice DECIMAL(15,2) NOT NULL,
		o_orderdate DATE NOT NULL,
		o_orderpriority CHAR(15) NOT NULL,
		o_clerk CHAR(15) NOT NULL,
		o_shippriority INT NOT NULL,
		o_comment VARCHAR(79) NOT NULL,
		PRIMARY KEY (o_orderkey),
		KEY o_custkey (o_custkey)
	)`,
	`CREATE TABLE lineitem (
		l_orderkey INT NOT NULL,
		l_partkey INT NOT NULL,
		l_suppkey INT NOT NULL,
		l_linenumber INT NOT NULL,
		l_quantity DECIMAL(15,2) NOT NULL,
		l_extendedprice DECIMAL(15,2) NOT NULL,
		l_discount DECIMAL(15,2) NOT NULL,
		l_tax DECIMAL(15,2) NOT NULL,
		l_returnflag CHAR(1) NOT NULL,
		l_linestatus CHAR(1) NOT NULL,
		l_shipdate DATE NOT NULL,
		l_commitdate DATE NOT NULL,
		l_receiptdate DATE NOT NULL,
		l_shipinstruct CHAR(25) NOT NULL,
		l_shipmode CHAR(10) NOT NULL,
		l_comment VARCHAR(44) NOT NULL,
		PRIMARY KEY (l_orderkey, l_linenumber),
		KEY l_partsupp (l_partkey, l_suppkey),
		KEY l_suppkey (l_suppkey)
	)`,
}

// CreateSchema creates the tables in db's current database.
func CreateSchema(ctx context.Context, db *sql.DB) error { return query.ExecAll(ctx, db, Schema) }

// batchRows is the number of rows per INSERT (lineitem rows are ~150
// bytes of SQL: ~75 KB statements).
const batchRows = 500

// Load generates the tables with g and inserts them with multi-row
// INSERTs over workers connections. It returns the rows loaded per table.
func Load(ctx context.Context, db *sql.DB, g *Generator, workers int) (map[string]int, error) {
	l := query.NewLoader(ctx, db, workers)
	batches := map[string]*query.Batch{}
	for _, t := range Tables {
		batches[t] = l.Batch("INSERT INTO "+t+" VALUES ", batchRows)
	}
	counts := map[string]int{}
	g.Generate(func(table string, row []string) bool {
		counts[table]++
		return batches[table].Add("(" + strings.Join(row, ",") + ")")
	})
	for _, t := range Tables {
		batches[t].Flush()
	}
	return counts, l.Wait()
}
