package tpcc

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/strata-db/strata/internal/bench/query"
)

// Scale is the size of a TPC-C database. Full gives the specification's
// cardinalities (clause 4.2.2); tests use smaller ones.
type Scale struct {
	// Warehouses is W, the number of warehouses.
	Warehouses int `json:"warehouses"`
	// Districts per warehouse (10 in TPC-C).
	Districts int `json:"districts"`
	// Customers per district (3,000 in TPC-C); each has one initial order.
	Customers int `json:"customers"`
	// Items (100,000 in TPC-C), also the stock rows per warehouse.
	Items int `json:"items"`
	// Names is the number of distinct customer last names (1,000 in
	// TPC-C): the first Names customers of a district get names 0…Names-1,
	// the others a name drawn with NURand(255, 0, 999) mod Names, and
	// transactions look customers up by a name drawn the same way.
	Names int `json:"names"`
}

// Full is the specification's scale with w warehouses: per warehouse 10
// districts, 30,000 customers, 30,000 orders (9,000 undelivered), about
// 300,000 order lines and 100,000 stock rows; 100,000 items.
func Full(w int) Scale {
	return Scale{Warehouses: w, Districts: 10, Customers: 3000, Items: 100000, Names: 1000}
}

// Orders is the number of initial orders per district (one per customer).
func (s Scale) Orders() int { return s.Customers }

// NewOrders is the number of undelivered initial orders per district: the
// last 900 of 3,000 in TPC-C, the same 30 % at other scales.
func (s Scale) NewOrders() int { return s.Customers * 3 / 10 }

// Validate reports a scale the loader and transactions cannot work with.
func (s Scale) Validate() error {
	if s.Warehouses < 1 || s.Districts < 1 || s.Districts > 10 || s.Customers < 1 || s.Items < 15 || s.Names < 1 || s.Names > 1000 || s.Names > s.Customers {
		return fmt.Errorf("tpcc: bad scale %+v (want ≥1 warehouse and customer, 1–10 districts, ≥15 items, 1–1000 names and no more names than customers)", s)
	}
	return nil
}

// Schema creates the nine TPC-C tables with their primary keys and the two
// secondary indexes TPC-C implementations commonly add (customer by last
// name, orders by customer). The tables name no storage engine, so each
// server's default engine holds them.
var Schema = []string{
	`CREATE TABLE warehouse (
		w_id INT NOT NULL,
		w_name VARCHAR(10),
		w_street_1 VARCHAR(20),
		w_city VARCHAR(20),
		w_state CHAR(2),
		w_zip CHAR(9),
		w_tax DECIMAL(4,4),
		w_ytd DECIMAL(12,2),
		PRIMARY KEY (w_id)
	)`,
	`CREATE TABLE district (
		d_id INT NOT NULL,
		d_w_id INT NOT NULL,
		d_name VARCHAR(10),
		d_street_1 VARCHAR(20),
		d_city VARCHAR(20),
		d_state CHAR(2),
		d_zip CHAR(9),
		d_tax DECIMAL(4,4),
		d_ytd DECIMAL(12,2),
		d_next_o_id INT,
		PRIMARY KEY (d_w_id, d_id)
	)`,
	`CREATE TABLE customer (
		c_id INT NOT NULL,
		c_d_id INT NOT NULL,
		c_w_id INT NOT NULL,
		c_first VARCHAR(16),
		c_middle CHAR(2),
		c_last VARCHAR(16),
		c_phone CHAR(16),
		c_since DATETIME,
		c_credit CHAR(2),
		c_credit_lim DECIMAL(12,2),
		c_discount DECIMAL(4,4),
		c_balance DECIMAL(12,2),
		c_ytd_payment DECIMAL(12,2),
		c_payment_cnt INT,
		c_delivery_cnt INT,
		c_data VARCHAR(500),
		PRIMARY KEY (c_w_id, c_d_id, c_id),
		KEY idx_customer_name (c_w_id, c_d_id, c_last, c_first)
	)`,
	`CREATE TABLE history (
		h_id BIGINT NOT NULL AUTO_INCREMENT,
		h_c_id INT,
		h_c_d_id INT,
		h_c_w_id INT,
		h_d_id INT,
		h_w_id INT,
		h_date DATETIME,
		h_amount DECIMAL(6,2),
		h_data VARCHAR(24),
		PRIMARY KEY (h_id)
	)`,
	`CREATE TABLE new_orders (
		no_o_id INT NOT NULL,
		no_d_id INT NOT NULL,
		no_w_id INT NOT NULL,
		PRIMARY KEY (no_w_id, no_d_id, no_o_id)
	)`,
	`CREATE TABLE orders (
		o_id INT NOT NULL,
		o_d_id INT NOT NULL,
		o_w_id INT NOT NULL,
		o_c_id INT,
		o_entry_d DATETIME,
		o_carrier_id INT NULL,
		o_ol_cnt INT,
		o_all_local INT,
		PRIMARY KEY (o_w_id, o_d_id, o_id),
		KEY idx_orders_customer (o_w_id, o_d_id, o_c_id, o_id)
	)`,
	`CREATE TABLE order_line (
		ol_o_id INT NOT NULL,
		ol_d_id INT NOT NULL,
		ol_w_id INT NOT NULL,
		ol_number INT NOT NULL,
		ol_i_id INT,
		ol_supply_w_id INT,
		ol_delivery_d DATETIME NULL,
		ol_quantity INT,
		ol_amount DECIMAL(6,2),
		ol_dist_info CHAR(24),
		PRIMARY KEY (ol_w_id, ol_d_id, ol_o_id, ol_number)
	)`,
	`CREATE TABLE item (
		i_id INT NOT NULL,
		i_im_id INT,
		i_name VARCHAR(24),
		i_price DECIMAL(5,2),
		i_data VARCHAR(50),
		PRIMARY KEY (i_id)
	)`,
	`CREATE TABLE stock (
		s_i_id INT NOT NULL,
		s_w_id INT NOT NULL,
		s_quantity INT,
		s_dist_01 CHAR(24), s_dist_02 CHAR(24), s_dist_03 CHAR(24), s_dist_04 CHAR(24),
		s_dist_05 CHAR(24), s_dist_06 CHAR(24), s_dist_07 CHAR(24), s_dist_08 CHAR(24),
		s_dist_09 CHAR(24), s_dist_10 CHAR(24),
		s_ytd INT,
		s_order_cnt INT,
		s_remote_cnt INT,
		s_data VARCHAR(50),
		PRIMARY KEY (s_w_id, s_i_id)
	)`,
}

// CreateSchema creates the tables in db's current database.
func CreateSchema(ctx context.Context, db *sql.DB) error { return query.ExecAll(ctx, db, Schema) }
