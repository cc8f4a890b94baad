// Package table maps relational rows onto the key-value store, as MyRocks'
// handler does: primary and secondary index entries, unique checks and row
// locks, auto-increment, and scans.
//
// Key layout (see internal/encoding for the key-part encodings):
//
//	primary-key   = index-id(4) pk-part...          -> row value (codec.RowCodec)
//	hidden-pk     = index-id(4) row-id(8, BE)       -> row value
//	secondary-key = index-id(4) idx-part... pk-suffix -> empty
//
// where pk-suffix is the primary key without its index id, so a secondary
// entry leads to its row without decoding any column. A unique secondary index
// is unique on its idx-part prefix (rows with a NULL key part never conflict);
// writers lock that prefix.
package table
