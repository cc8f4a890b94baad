// Package coltype maps MySQL column types between the SQL parser (Vitess
// sqlparser), the catalog (catalog.Column), the wire protocol (querypb.Field)
// and expression evaluation (evalengine.Type).
//
// # Basics
//
//   - FromAST turns a parsed column definition into a catalog.Column,
//     validating the type and coercing its DEFAULT.
//   - Convert performs MySQL store assignment: it converts any value into the
//     canonical stored text of a column, clipping or rejecting it the way
//     MySQL 8.0 does in strict and non-strict sql_mode, with MySQL's error
//     codes and warnings.
//   - FormatType, ShowCreateTable and QuoteIdent print types and tables the
//     way MySQL 8.0 prints them.
//   - Field and EvalType describe a column to the protocol and evalengine.
//
// # Canonical stored forms
//
// Integers print in decimal ("123"), DECIMAL with exactly Scale fraction
// digits ("12.50"), FLOAT/DOUBLE in the shortest round-trip form (FLOAT
// rounded to float32 first), DATE "YYYY-MM-DD", DATETIME/TIMESTAMP
// "YYYY-MM-DD hh:mm:ss[.f]" with Scale fraction digits, TIME
// "[-]hh:mm:ss[.f]", YEAR "YYYY", ENUM/SET as member text in declaration case,
// CHAR without trailing spaces, BINARY(n) zero-padded to n bytes, BIT(n) as
// (n+7)/8 big-endian bytes, JSON normalised.
//
// # Caveats
//
//   - Text is kept in UTF-8 whatever the column's character set; the
//     character set only decides which characters are accepted (latin1 and
//     utf8mb3 reject characters they cannot hold) and how many bytes a
//     character counts for in metadata.
//   - TIMESTAMP range checks apply to the UTC instant: Convert takes the
//     value as UTC, ConvertIn as local time of a zone.
//   - A datetime string may end in a UTC offset (MySQL 8.0.19+:
//     "2020-01-01 10:10:10+05:30"): DATETIME and TIMESTAMP take it converted
//     to the zone ConvertIn is given; DATE does not accept one.
//   - FLOAT is stored losslessly as the shortest text of the float32 value;
//     MySQL displays FLOAT with 6 significant digits.
package coltype
