package tpcc

// Scale of the scaled-down database.
const (
	numWarehouses   = 2
	districtsPerW   = 10
	customersPerD   = 30
	numItems        = 1000
	initialOrders   = customersPerD // one initial order per customer
	initialNewOrder = 9             // the last 9 initial orders are undelivered
)

// schema creates the nine TPC-C tables with their primary keys and the two
// secondary indexes TPC-C implementations commonly add (customer by last
// name, orders by customer).
var schema = []string{
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
	) ENGINE=InnoDB`,
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
	) ENGINE=InnoDB`,
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
	) ENGINE=InnoDB`,
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
	) ENGINE=InnoDB`,
	`CREATE TABLE new_orders (
		no_o_id INT NOT NULL,
		no_d_id INT NOT NULL,
		no_w_id INT NOT NULL,
		PRIMARY KEY (no_w_id, no_d_id, no_o_id)
	) ENGINE=InnoDB`,
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
	) ENGINE=InnoDB`,
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
	) ENGINE=InnoDB`,
	`CREATE TABLE item (
		i_id INT NOT NULL,
		i_im_id INT,
		i_name VARCHAR(24),
		i_price DECIMAL(5,2),
		i_data VARCHAR(50),
		PRIMARY KEY (i_id)
	) ENGINE=InnoDB`,
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
	) ENGINE=InnoDB`,
}

// lastNameSyllables are TPC-C's C_LAST syllables (clause 4.3.2.3).
var lastNameSyllables = []string{"BAR", "OUGHT", "ABLE", "PRI", "PRES", "ESE", "ANTI", "CALLY", "ATION", "EING"}

// lastName returns TPC-C's last name for number n (0..999).
func lastName(n int) string {
	return lastNameSyllables[n/100] + lastNameSyllables[(n/10)%10] + lastNameSyllables[n%10]
}

// customerLastName is the last name given to customer c (1-based) at load:
// ten distinct names per district, three customers each, so lookups by
// name find several rows as in TPC-C.
func customerLastName(c int) string { return lastName((c - 1) % 10) }
