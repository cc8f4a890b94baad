package parse

import (
	"reflect"
	"testing"

	"vitess.io/vitess/go/vt/sqlparser"
)

func TestParseCreateTrigger(t *testing.T) {
	for _, tc := range []struct {
		sql  string
		want CreateTrigger
	}{
		{"CREATE TRIGGER tr BEFORE INSERT ON t FOR EACH ROW SET NEW.a = 1;",
			CreateTrigger{Name: "tr", Timing: "BEFORE", Event: "INSERT", Table: "t", Body: "SET NEW.a = 1"}},
		{"create definer = 'u'@'%' trigger if not exists `d`.`t r` after delete on d.t for each row follows x delete from l",
			CreateTrigger{Definer: "u", DefinerHost: "%", IfNotExists: true, Schema: "d", Name: "t r", Timing: "AFTER", Event: "DELETE",
				TableSchema: "d", Table: "t", Order: "FOLLOWS", OrderName: "x", Body: "delete from l"}},
		{"/*!50003 CREATE*/ /*!50017 DEFINER=`root`@`localhost`*/ /*!50003 TRIGGER `tr` BEFORE UPDATE ON `t` FOR EACH ROW BEGIN\nSET NEW.a = 1;\nEND */",
			CreateTrigger{Definer: "root", DefinerHost: "localhost", Name: "tr", Timing: "BEFORE", Event: "UPDATE", Table: "t", Body: "BEGIN\nSET NEW.a = 1;\nEND"}},
		{"CREATE DEFINER=CURRENT_USER() TRIGGER tr AFTER UPDATE ON t FOR EACH ROW PRECEDES o SET @x = 1",
			CreateTrigger{Definer: "CURRENT_USER", Name: "tr", Timing: "AFTER", Event: "UPDATE", Table: "t", Order: "PRECEDES", OrderName: "o", Body: "SET @x = 1"}},
	} {
		got, err := ParseCreateTrigger(tc.sql)
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ParseCreateTrigger(%q) =\n %+v, %v\nwant\n %+v", tc.sql, got, err, tc.want)
		}
	}
	for _, bad := range []string{
		"CREATE TRIGGER tr INSERT ON t FOR EACH ROW SET @x = 1",
		"CREATE TRIGGER tr BEFORE INSERT ON t SET @x = 1",
		"CREATE TRIGGER tr BEFORE INSERT ON t FOR EACH ROW",
		"CREATE TRIGGER tr BEFORE TRUNCATE ON t FOR EACH ROW SET @x = 1",
	} {
		if _, err := ParseCreateTrigger(bad); err == nil {
			t.Errorf("ParseCreateTrigger(%q) succeeded", bad)
		}
	}
}

func TestSplitBody(t *testing.T) {
	for body, want := range map[string][]string{
		"SET NEW.a = 1": {"SET NEW.a = 1"},
		"BEGIN SET NEW.a = ';'; INSERT INTO `x;y` VALUES (\"a;b\", 'it''s;'); END": {"SET NEW.a = ';'", "INSERT INTO `x;y` VALUES (\"a;b\", 'it''s;')"},
		"begin\n  set @a = 1; -- one; two\n  set @b = 2 /* ; */;\nend":             {"set @a = 1", "-- one; two\n  set @b = 2 /* ; */"},
		"BEGIN END": nil,
	} {
		got, err := SplitBody(body)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("SplitBody(%q) = %q, %v; want %q", body, got, err, want)
		}
	}
	for _, bad := range []string{"BEGIN SET @a = 1;", "BEGIN SET @a = 'x; END"} {
		if _, err := SplitBody(bad); err == nil {
			t.Errorf("SplitBody(%q) succeeded", bad)
		}
	}
}

func TestFirstWord(t *testing.T) {
	for in, want := range map[string]string{
		"set @a = 1": "SET", "  /* c */ DECLARE x INT": "DECLARE", "lbl: LOOP": "LBL:", "x := 1": "X",
	} {
		if got := FirstWord(in); got != want {
			t.Errorf("FirstWord(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestParseSignal(t *testing.T) {
	sig, ok, err := ParseSignal("SIGNAL SQLSTATE VALUE '45000' SET MESSAGE_TEXT = 'it''s bad', MYSQL_ERRNO = 1234;")
	if !ok || err != nil || sig != (Signal{State: "45000", Message: "it's bad", Errno: 1234}) {
		t.Errorf("got %+v %v %v", sig, ok, err)
	}
	if _, ok, _ := ParseSignal("SELECT 1"); ok {
		t.Error("SELECT taken for SIGNAL")
	}
	if _, ok, err := ParseSignal("SIGNAL my_condition"); !ok || err == nil {
		t.Errorf("SIGNAL of a named condition: ok=%v err=%v", ok, err)
	}
}

func TestSplitStatements(t *testing.T) {
	p, err := sqlparser.New(sqlparser.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for in, want := range map[string][]string{
		"SELECT 1; SELECT ';'": {"SELECT 1", " SELECT ';'"}, // Vitess's splitter
		"CREATE TABLE t (a INT); CREATE TRIGGER tr BEFORE INSERT ON t FOR EACH ROW BEGIN SET NEW.a = 1; SET @trigger = CASE WHEN 1 THEN 2 END; END; INSERT INTO t VALUES (1)": {
			"CREATE TABLE t (a INT)", "CREATE TRIGGER tr BEFORE INSERT ON t FOR EACH ROW BEGIN SET NEW.a = 1; SET @trigger = CASE WHEN 1 THEN 2 END; END", "INSERT INTO t VALUES (1)"},
		"/* c */ CREATE TRIGGER tr AFTER DELETE ON t FOR EACH ROW BEGIN IF OLD.a THEN SET @x = 1; END IF; END;SELECT 'trigger'": {
			"/* c */ CREATE TRIGGER tr AFTER DELETE ON t FOR EACH ROW BEGIN IF OLD.a THEN SET @x = 1; END IF; END", "SELECT 'trigger'"},
		"/*!50003 CREATE*/ /*!50003 TRIGGER tr BEFORE INSERT ON t FOR EACH ROW BEGIN SET NEW.a = 1; END */; SELECT 1": {
			"/*!50003 CREATE*/ /*!50003 TRIGGER tr BEFORE INSERT ON t FOR EACH ROW BEGIN SET NEW.a = 1; END */", "SELECT 1"},
		"CREATE TRIGGER tr BEFORE INSERT ON t FOR EACH ROW SET NEW.a = 1; SELECT 2": {"CREATE TRIGGER tr BEFORE INSERT ON t FOR EACH ROW SET NEW.a = 1", "SELECT 2"},
	} {
		got, err := SplitStatements(p, in)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("SplitStatements(%q) =\n %q, %v\nwant\n %q", in, got, err, want)
		}
	}
}
