package sql

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"vitess.io/vitess/go/mysql/json"
	"vitess.io/vitess/go/sqltypes"
	querypb "vitess.io/vitess/go/vt/proto/query"

	"github.com/strata-db/strata/internal/catalog"
)

// TestJSONTableParameter: the document as a parameter of a prepared
// statement, bound per execution of the one cached plan.
func TestJSONTableParameter(t *testing.T) {
	ctx := context.Background()
	_, s := newTestEngine(t)
	checkExec(t, s, "CREATE DATABASE d", "USE d")
	q := "SELECT o, v FROM JSON_TABLE(?, '$[*]' COLUMNS (o FOR ORDINALITY, v INT PATH '$')) AS jt"
	for _, tc := range []struct {
		doc  *querypb.BindVariable
		want string
	}{
		{sqltypes.StringBindVariable("[7, 8]"), "1,7;2,8"},
		{sqltypes.StringBindVariable("[9]"), "1,9"},
		{sqltypes.NullBindVariable, ""},
	} {
		res, err := s.ExecutePrepared(ctx, q, map[string]*querypb.BindVariable{"v1": tc.doc})
		if err != nil {
			t.Fatalf("%v: %v", tc.doc, err)
		}
		if got := resText(res); got != tc.want {
			t.Errorf("%v: got %q, want %q", tc.doc, got, tc.want)
		}
	}
	if _, err := s.ExecutePrepared(ctx, q, map[string]*querypb.BindVariable{"v1": sqltypes.StringBindVariable("[1")}); errNum(err) != 3141 {
		t.Errorf("invalid JSON: %v, want 3141", err)
	}
	// On the inner side of a join the rows of a document that reads no
	// column are kept for the execution (and hashed): never for the next.
	checkExec(t, s, "CREATE TABLE n (n INT PRIMARY KEY)", "INSERT INTO n VALUES (1), (2), (3), (4)")
	q = "SELECT n.n, jt.v FROM n LEFT JOIN JSON_TABLE(?, '$[*]' COLUMNS (v INT PATH '$')) AS jt ON jt.v = n.n"
	for doc, want := range map[string]string{"[2, 3]": "1,NULL;2,2;3,3;4,NULL", "[4, 4]": "1,NULL;2,NULL;3,NULL;4,4;4,4", "[]": "1,NULL;2,NULL;3,NULL;4,NULL"} {
		res, err := s.ExecutePrepared(ctx, q, map[string]*querypb.BindVariable{"v1": sqltypes.StringBindVariable(doc)})
		if err != nil {
			t.Fatalf("%s: %v", doc, err)
		}
		if got := resText(res); got != want {
			t.Errorf("%s: got %q, want %q", doc, got, want)
		}
	}
}

// TestJSONTableSharedPlan: sessions running the same statement (one cached
// plan, handed out to one execution at a time) each read their own
// document; nothing of an execution stays in the plan.
func TestJSONTableSharedPlan(t *testing.T) {
	ctx := context.Background()
	eng, s := newTestEngine(t)
	checkExec(t, s, "CREATE DATABASE d", "USE d",
		"CREATE TABLE t (id INT PRIMARY KEY, doc JSON)",
		"INSERT INTO t VALUES (1, '[1, 2]'), (2, '[10, 20, 30]')")
	const q = "SELECT SUM(jt.v) + @k FROM t, JSON_TABLE(t.doc, '$[*]' COLUMNS (v INT PATH '$')) AS jt WHERE t.id = @id"
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			ss := eng.NewSession("root", "localhost")
			defer ss.Close()
			id, want := 1+g%2, []int{3, 60}[g%2]+g
			for _, set := range []string{"USE d", fmt.Sprintf("SET @id = %d, @k = %d", id, g)} {
				if _, err := ss.Query(ctx, set); err != nil {
					errs <- err
					return
				}
			}
			for i := 0; i < 50; i++ {
				res, err := ss.Query(ctx, q)
				if err != nil {
					errs <- err
					return
				}
				if got := resText(res); got != fmt.Sprint(want) {
					errs <- fmt.Errorf("session %d: got %s, want %d", g, got, want)
					return
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestJSONTableRows: the rows of nested and sibling NESTED PATHs (MySQL's
// fill_json_table order).
func TestJSONTableRows(t *testing.T) {
	ctx := context.Background()
	_, s := newTestEngine(t)
	checkExec(t, s, "CREATE DATABASE d", "USE d")
	for _, tc := range []struct{ q, want string }{
		{`SELECT * FROM JSON_TABLE('[{"a":1,"x":[1,2],"y":[3]},{"a":2}]', '$[*]' COLUMNS (a INT PATH '$.a',
			NESTED PATH '$.x[*]' COLUMNS (x INT PATH '$'), NESTED PATH '$.y[*]' COLUMNS (y INT PATH '$'))) jt`,
			"1,1,NULL;1,2,NULL;1,NULL,3;2,NULL,NULL"},
		{`SELECT * FROM JSON_TABLE('{"n":[{"m":[1,2]},{"m":[]},{"m":[3]}]}', '$' COLUMNS (
			NESTED PATH '$.n[*]' COLUMNS (o FOR ORDINALITY, NESTED PATH '$.m[*]' COLUMNS (p FOR ORDINALITY, v INT PATH '$')))) jt`,
			"1,1,1;1,2,2;2,NULL,NULL;3,1,3"},
		{`SELECT COUNT(*) FROM JSON_TABLE('[]', '$[*]' COLUMNS (v INT PATH '$')) jt`, "0"},
		{`SELECT e FROM JSON_TABLE('[{"a":null},{}]', '$[*]' COLUMNS (e INT EXISTS PATH '$.a')) jt`, "1;0"},
	} {
		res, err := s.Query(ctx, tc.q)
		if err != nil {
			t.Fatalf("%s: %v", tc.q, err)
		}
		if got := resText(res); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.q, got, tc.want)
		}
	}
}

// TestJSONTableConvert: a JSON value into a column's type, and the error
// ERROR ON ERROR reports when it does not fit.
func TestJSONTableConvert(t *testing.T) {
	col := func(typ sqltypes.Type, name string, length, scale int) *catalog.Column {
		return &catalog.Column{Name: "c", Type: typ, TypeName: name, Length: length, Scale: scale, Nullable: true, Collation: 255}
	}
	intCol, decCol := col(sqltypes.Int32, "int", 0, 0), col(sqltypes.Decimal, "decimal", 4, 2)
	strCol, dateCol := col(sqltypes.VarChar, "varchar", 4, 0), col(sqltypes.Date, "date", 0, 0)
	for _, tc := range []struct {
		col  *catalog.Column
		in   string
		want string // the value, or the error number
	}{
		{intCol, `12`, "12"},
		{intCol, `1.5`, "2"},
		{intCol, `"12"`, "12"},
		{intCol, `"12x"`, "3156"},
		{intCol, `"3.5"`, "3156"},
		{intCol, `true`, "1"},
		{intCol, `null`, "NULL"},
		{intCol, `[1]`, "3666"},
		{intCol, `99999999999`, "3669"},
		{decCol, `"1.5e1"`, "15.00"},
		{decCol, `123.4`, "3669"},
		{strCol, `"abcd"`, "abcd"},
		{strCol, `"abcde"`, "3669"},
		{strCol, `1.5`, "1.5"},
		{strCol, `false`, "3669"},
		{dateCol, `"2020-1-2"`, "2020-01-02"},
		{dateCol, `"x"`, "3156"},
	} {
		var p json.Parser
		v, err := p.ParseBytes([]byte(tc.in))
		if err != nil {
			t.Fatal(err)
		}
		out, err := jtConvert(tc.col, v, 1)
		got := out.ToString()
		if out.IsNull() {
			got = "NULL"
		}
		if err != nil {
			got = fmt.Sprint(errNum(err))
		}
		if got != tc.want {
			t.Errorf("%s into %s: got %s, want %s", tc.in, tc.col.TypeName, got, tc.want)
		}
	}
}

func TestJSONTableNumberLiteral(t *testing.T) {
	for s, want := range map[string]bool{
		"1": true, "-1.5": true, "+.5": true, "1e5": true, "1.5E-3": true, "5.": true,
		"": false, ".": false, "e5": false, "1e": false, "12x": false, "inf": false, "1 2": false,
	} {
		if got := jtNumberLiteral(s); got != want {
			t.Errorf("%q: got %v, want %v", s, got, want)
		}
	}
}
