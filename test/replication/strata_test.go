package replication

import (
	"fmt"
	"math/rand"
	"testing"
	"time"

	"github.com/strata-db/strata/internal/testserver"
)

// TestReplicaOfStrata: strata follows a strata primary (--log-bin) through
// DDL, a mixed write load with JSON, and a kill -9 of the replica
// mid-stream, and ends with the same rows.
func TestReplicaOfStrata(t *testing.T) {
	src := testserver.Start(t, testserver.Options{Args: []string{"--log-bin", "--server-id", "2"}})
	primary := src.DB(t, "")
	mustExec(t, primary, "SET GLOBAL time_zone = '+00:00'")
	mustExec(t, primary, "CREATE DATABASE d")
	mustExec(t, primary, `CREATE TABLE d.t (id INT PRIMARY KEY, n BIGINT, u INT UNSIGNED, s VARCHAR(40),
		dec1 DECIMAL(12,2), dt DATETIME(3), d DATE, e ENUM('a','b','c'), st SET('x','y','z'),
		bl VARBINARY(10), f DOUBLE, ts TIMESTAMP NULL, y YEAR, bt BIT(5), c CHAR(100), j JSON)`)
	rng := rand.New(rand.NewSource(2))
	load(t, primary, rng, 50)
	mustExec(t, primary, `UPDATE d.t SET j = JSON_OBJECT('id', id, 'tags', JSON_ARRAY('a', s)) WHERE id % 3 = 0`)

	srv := testserver.Start(t, testserver.Options{})
	replica := srv.DB(t, "")
	mustExec(t, replica, fmt.Sprintf("CHANGE REPLICATION SOURCE TO SOURCE_HOST='127.0.0.1', SOURCE_PORT=%d, SOURCE_USER='root', SOURCE_CONNECT_RETRY=1", src.Port))
	mustExec(t, replica, "START REPLICA")
	waitCaughtUp(t, primary, replica)
	compare(t, primary, replica, "d.t")

	mustExec(t, primary, "CREATE TABLE d.t2 (id INT PRIMARY KEY, v VARCHAR(10))")
	mustExec(t, primary, "INSERT INTO d.t2 VALUES (1,'one'),(2,'two')")
	mustExec(t, primary, "ALTER TABLE d.t2 ADD COLUMN w INT")
	mustExec(t, primary, "UPDATE d.t2 SET w = id * 10")
	done := make(chan struct{})
	go func() {
		defer close(done)
		time.Sleep(300 * time.Millisecond)
		srv.Kill()
	}()
	load(t, primary, rng, 300)
	<-done
	srv.Restart(t)
	replica = srv.DB(t, "")
	load(t, primary, rng, 50)
	waitCaughtUp(t, primary, replica)
	compare(t, primary, replica, "d.t")
	compare(t, primary, replica, "d.t2")
	if st := replicaStatus(t, replica); st["Source_Server_Id"] != "2" || st["Executed_Gtid_Set"] == "" {
		t.Fatalf("status: Source_Server_Id %s, Executed_Gtid_Set %q", st["Source_Server_Id"], st["Executed_Gtid_Set"])
	}
}
