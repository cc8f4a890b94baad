package parse

import "testing"

// FuzzCompound feeds arbitrary text to the stored-program parsers (CREATE
// PROCEDURE/FUNCTION headers, compound bodies, CALL, GET DIAGNOSTICS):
// they return a result or an error, never panic or loop.
func FuzzCompound(f *testing.F) {
	for _, s := range []string{
		"BEGIN DECLARE x INT DEFAULT 0; WHILE x < 10 DO SET x = x + 1; END WHILE; END",
		"lbl: BEGIN DECLARE done INT DEFAULT FALSE; DECLARE c CURSOR FOR SELECT a FROM t; DECLARE CONTINUE HANDLER FOR NOT FOUND SET done = TRUE; OPEN c; l: LOOP FETCH c INTO x; IF done THEN LEAVE l; END IF; END LOOP; CLOSE c; END lbl",
		"BEGIN CASE x WHEN 1 THEN SELECT 1; ELSE BEGIN END; END CASE; REPEAT SET x = x - 1; UNTIL x = 0 END REPEAT; END",
		"BEGIN DECLARE EXIT HANDLER FOR SQLSTATE '23000', SQLEXCEPTION BEGIN ROLLBACK; RESIGNAL; END; SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'x'; END",
		"RETURN (SELECT COUNT(*) FROM t WHERE a = 'it''s; END')",
		"BEGIN /* ; END */ SELECT ';'; -- END\n END",
		"BEGIN IF a THEN ELSEIF b THEN ELSE END IF; ITERATE x; END",
		"BEGIN",
		"END",
		"BEGIN DECLARE c CONDITION FOR 1062; GET DIAGNOSTICS CONDITION 1 @m = MESSAGE_TEXT; END",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		if len(body) > 4096 {
			return
		}
		_, _ = ParseBody(body)
		_, _ = ParseCreateRoutine("CREATE PROCEDURE p(IN a INT, OUT b VARCHAR(10)) " + body)
		_, _ = ParseCreateRoutine("CREATE DEFINER=`u`@`h` FUNCTION f(a INT) RETURNS INT DETERMINISTIC " + body)
		_, _, _, _ = ParseCall("CALL " + body)
		_, _ = ParseGetDiagnostics("GET DIAGNOSTICS " + body)
	})
}
