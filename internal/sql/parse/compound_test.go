package parse

import (
	"strings"
	"testing"
)

// TestParseBody reads each compound construct into the expected tree.
func TestParseBody(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"SELECT 1", "SQL text=SELECT 1\n"},
		{"RETURN x + 1;", "RETURN expr=x + 1\n"},
		{`BEGIN
  DECLARE done INT DEFAULT FALSE;
  DECLARE a, b VARCHAR(10) CHARSET utf8mb4;
  DECLARE cur CURSOR FOR SELECT id, 'x;y' FROM t;
  DECLARE c1 CONDITION FOR SQLSTATE '45000';
  DECLARE CONTINUE HANDLER FOR NOT FOUND SET done = TRUE;
  DECLARE EXIT HANDLER FOR SQLEXCEPTION, 1062, c1 BEGIN END;
  OPEN cur;
  read_loop: LOOP
    FETCH NEXT FROM cur INTO a, b;
    IF done THEN LEAVE read_loop; ELSEIF a = 'q' THEN ITERATE read_loop; ELSE SET @x = CASE WHEN a THEN 1 END; END IF;
  END LOOP read_loop;
  CLOSE cur;
END`, `BLOCK
  DECLARE names=done type=INT expr=FALSE
  DECLARE names=a,b type=VARCHAR(10) CHARSET utf8mb4
  CURSOR name=cur text=SELECT id, 'x;y' FROM t
  CONDITION name=c1 cond=SQLSTATE45000
  HANDLER CONTINUE cond=NOT FOUND
    SET text=SET done = TRUE
  HANDLER EXIT cond=SQLEXCEPTION cond=ERRNO1062 cond=NAMEc1
    BLOCK
  OPEN name=cur
  LOOP label=read_loop
    FETCH name=cur names=a,b
    IF
     WHEN done
      LEAVE name=read_loop
     WHEN a = 'q'
      ITERATE name=read_loop
     ELSE
      SET text=SET @x = CASE WHEN a THEN 1 END
  CLOSE name=cur
`},
		{`w: WHILE i < 10 DO SET i = i + 1; END WHILE w`, "WHILE label=w expr=i < 10\n  SET text=SET i = i + 1\n"},
		{`REPEAT SET i = i - 1; UNTIL i <= 0 END REPEAT`, "REPEAT expr=i <= 0\n  SET text=SET i = i - 1\n"},
		{`CASE x WHEN 1 THEN SELECT 'a'; WHEN 2 THEN BEGIN END; END CASE`, "CASE expr=x\n WHEN 1\n  SQL text=SELECT 'a'\n WHEN 2\n  BLOCK\n"},
		{`SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'bad, really', MYSQL_ERRNO = 1234`, "SIGNAL cond=SQLSTATE45000 MESSAGE_TEXT='bad, really' MYSQL_ERRNO=1234\n"},
		{`BEGIN RESIGNAL; END`, "BLOCK\n  RESIGNAL\n"},
		{"/*!50003 BEGIN SELECT 1; -- c\n CALL p(1); END */", "BLOCK\n  SQL text=SELECT 1\n  CALL text=CALL p(1)\n"},
	} {
		n, err := ParseBody(tc.in)
		if err != nil {
			t.Errorf("%q: %v", tc.in, err)
			continue
		}
		if got := n.String(); got != tc.want {
			t.Errorf("%q:\ngot:\n%s\nwant:\n%s", tc.in, got, tc.want)
		}
	}
	for _, bad := range []string{
		"BEGIN SELECT 1",                    // no END
		"BEGIN SELECT 1; END x",             // end label without a label
		"l: BEGIN END m",                    // labels differ
		"IF x THEN SELECT 1; END",           // END IF
		"LOOP SELECT 1; END WHILE",          // END LOOP
		"BEGIN 'unterminated; END",          // quote
		"CASE WHEN 1 THEN SELECT 1; END IF", // END CASE
	} {
		if _, err := ParseBody(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

// TestParseCreateRoutine reads headers, parameters and characteristics.
func TestParseCreateRoutine(t *testing.T) {
	cr, err := ParseCreateRoutine("/*!50003 CREATE*/ /*!50020 DEFINER=`root`@`localhost`*/ /*!50003 PROCEDURE `db`.`p`(IN a INT, OUT b DECIMAL(10,2), INOUT `c d` VARCHAR(5))\n" +
		"    COMMENT 'it''s' READS SQL DATA SQL SECURITY INVOKER\nBEGIN SELECT a; END */;")
	if err != nil {
		t.Fatal(err)
	}
	if cr.Kind != "PROCEDURE" || cr.Schema != "db" || cr.Name != "p" || cr.Definer != "root" || cr.DefinerHost != "localhost" ||
		len(cr.Params) != 3 || cr.Params[1] != (RoutineParam{"OUT", "b", "DECIMAL(10,2)"}) || cr.Params[2].Name != "c d" ||
		cr.Chars.Comment == nil || *cr.Chars.Comment != "it's" || cr.Chars.DataAccess != "READS SQL DATA" || cr.Chars.Security != "INVOKER" ||
		strings.TrimSpace(cr.Body) != "BEGIN SELECT a; END" {
		t.Fatalf("%+v", cr)
	}
	cr, err = ParseCreateRoutine("CREATE FUNCTION IF NOT EXISTS f(x INT) RETURNS varchar(20) CHARSET utf8mb4 NOT DETERMINISTIC NO SQL RETURN CONCAT(x, 'a')")
	if err != nil {
		t.Fatal(err)
	}
	if !cr.IfNotExists || cr.Returns != "varchar(20) CHARSET utf8mb4" || cr.Chars.Deterministic == nil || *cr.Chars.Deterministic ||
		cr.Chars.DataAccess != "NO SQL" || cr.Body != "RETURN CONCAT(x, 'a')" || cr.Params[0] != (RoutineParam{"", "x", "INT"}) {
		t.Fatalf("%+v", cr)
	}
	if _, err := ParseCreateRoutine("CREATE FUNCTION f() BEGIN END"); err == nil {
		t.Fatal("function without RETURNS parsed")
	}
	kind, _, name, ch, err := ParseAlterRoutine("ALTER PROCEDURE p COMMENT 'x' MODIFIES SQL DATA")
	if err != nil || kind != "PROCEDURE" || name != "p" || *ch.Comment != "x" || ch.DataAccess != "MODIFIES SQL DATA" {
		t.Fatalf("alter: %v %v %v %+v", err, kind, name, ch)
	}
	db, name, args, err := ParseCall("CALL d.p(1, 'a,b', f(2, 3), @x)")
	if err != nil || db != "d" || name != "p" || len(args) != 4 || args[2] != "f(2, 3)" {
		t.Fatalf("call: %v %v %v %q", err, db, name, args)
	}
}
