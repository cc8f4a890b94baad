package auth_test

import (
	"reflect"
	"testing"

	"github.com/strata-db/strata/internal/testserver"
)

// TestPrivilegeTables: information_schema.SCHEMA_PRIVILEGES and
// TABLE_PRIVILEGES list the database- and table-level grants, one row per
// privilege, GRANT OPTION as IS_GRANTABLE; an account sees its own rows,
// an account with SELECT on mysql everyone's; REVOKE and DROP USER remove
// them.
func TestPrivilegeTables(t *testing.T) {
	srv := testserver.Start(t, testserver.Options{})
	root := srv.DB(t, "")
	mustExec(t, root,
		"CREATE DATABASE pd", "CREATE TABLE pd.t (id INT PRIMARY KEY)", "CREATE TABLE pd.u (id INT PRIMARY KEY)",
		"CREATE USER 'pa'@'%'", "GRANT SELECT, INSERT ON pd.* TO 'pa'@'%'",
		"GRANT UPDATE ON pd.t TO 'pa'@'%' WITH GRANT OPTION",
		"CREATE USER 'pb'@'%'", "GRANT DELETE ON pd.u TO 'pb'@'%'",
	)
	const schemaQ = "SELECT GRANTEE, TABLE_CATALOG, TABLE_SCHEMA, PRIVILEGE_TYPE, IS_GRANTABLE FROM information_schema.SCHEMA_PRIVILEGES ORDER BY GRANTEE, PRIVILEGE_TYPE"
	const tableQ = "SELECT GRANTEE, TABLE_SCHEMA, TABLE_NAME, PRIVILEGE_TYPE, IS_GRANTABLE FROM information_schema.TABLE_PRIVILEGES ORDER BY GRANTEE, TABLE_NAME, PRIVILEGE_TYPE"

	pa := connectAs(t, srv, "pa", "", "")
	if got, want := queryStrings(t, pa, schemaQ), []string{"'pa'@'%'|def|pd|INSERT|NO", "'pa'@'%'|def|pd|SELECT|NO"}; !reflect.DeepEqual(got, want) {
		t.Errorf("pa's SCHEMA_PRIVILEGES = %q, want %q", got, want)
	}
	if got, want := queryStrings(t, pa, tableQ), []string{"'pa'@'%'|pd|t|UPDATE|YES"}; !reflect.DeepEqual(got, want) {
		t.Errorf("pa's TABLE_PRIVILEGES = %q, want %q (not pb's)", got, want)
	}
	if got, want := queryStrings(t, root, tableQ), []string{"'pa'@'%'|pd|t|UPDATE|YES", "'pb'@'%'|pd|u|DELETE|NO"}; !reflect.DeepEqual(got, want) {
		t.Errorf("root's TABLE_PRIVILEGES = %q, want %q", got, want)
	}
	mustExec(t, root, "REVOKE INSERT ON pd.* FROM 'pa'@'%'", "DROP USER 'pb'@'%'")
	if got, want := queryStrings(t, root, schemaQ), []string{"'pa'@'%'|def|pd|SELECT|NO"}; !reflect.DeepEqual(got, want) {
		t.Errorf("SCHEMA_PRIVILEGES after REVOKE = %q, want %q", got, want)
	}
	if got, want := queryStrings(t, root, tableQ), []string{"'pa'@'%'|pd|t|UPDATE|YES"}; !reflect.DeepEqual(got, want) {
		t.Errorf("TABLE_PRIVILEGES after DROP USER = %q, want %q", got, want)
	}
}
