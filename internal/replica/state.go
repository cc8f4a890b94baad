package replica

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"

	"github.com/strata-db/strata/internal/txn"
)

// Replication state in the store, under the reserved index id
// StateIndexID (ids below catalog.FirstUserIndexID are reserved):
//
//	state-key = StateIndexID(4) kind(1)
//	kind 'S'  -> Source JSON   (connection settings, CHANGE REPLICATION SOURCE TO)
//	kind 'P'  -> Position JSON (written in the transaction of each applied group)
//
// The position is MySQL's mysql.slave_relay_log_info, the source
// mysql.slave_master_info.

// StateIndexID is the reserved index id of the replication state.
const StateIndexID uint32 = 3

func stateKey(kind byte) []byte {
	return append(binary.BigEndian.AppendUint32(nil, StateIndexID), kind)
}

var (
	sourceKey   = stateKey('S')
	positionKey = stateKey('P')
)

// Source is the connection settings of CHANGE REPLICATION SOURCE TO.
type Source struct {
	Host         string `json:"host"`
	Port         int    `json:"port"`
	User         string `json:"user"`
	Password     string `json:"password,omitempty"`
	ConnectRetry int    `json:"connect_retry"`
	RetryCount   int    `json:"retry_count"`
	// Running: replication was started (START REPLICA) and not stopped;
	// a server start resumes it.
	Running bool `json:"running,omitempty"`
}

// Position is how far the applier got: the source's binary log file and
// the position after the last applied event group, and the GTID set
// applied (as the source's flavour prints it).
type Position struct {
	File string `json:"file"`
	Pos  uint64 `json:"pos"`
	GTID string `json:"gtid,omitempty"`
	// Flavor of the GTID set: "MariaDB" or "MySQL56" ("" when none).
	Flavor string `json:"flavor,omitempty"`
}

// encode is the stored form of a position.
func (p Position) encode() []byte {
	b, _ := json.Marshal(p)
	return b
}

// loadState reads the stored source settings and position; ok is false
// when no source was ever configured.
func loadState(ctx context.Context, db *txn.DB) (src Source, pos Position, ok bool, err error) {
	tx := db.Begin(ctx, txn.RepeatableRead, 0)
	defer tx.Rollback()
	v, found, err := tx.Get(sourceKey)
	if err != nil {
		return src, pos, false, fmt.Errorf("replica: reading the source settings: %w", err)
	}
	if !found {
		return src, pos, false, nil
	}
	if err := json.Unmarshal(v, &src); err != nil {
		return src, pos, false, fmt.Errorf("replica: decoding the source settings: %w", err)
	}
	v, found, err = tx.Get(positionKey)
	if err != nil {
		return src, pos, false, fmt.Errorf("replica: reading the applied position: %w", err)
	}
	if found {
		if err := json.Unmarshal(v, &pos); err != nil {
			return src, pos, false, fmt.Errorf("replica: decoding the applied position: %w", err)
		}
	}
	return src, pos, true, nil
}

// saveState writes the source settings and, when pos is not nil, the
// position, in one durable transaction; a nil src deletes both (RESET
// REPLICA ALL).
func saveState(ctx context.Context, db *txn.DB, src *Source, pos *Position, clearPos bool) error {
	tx := db.Begin(ctx, txn.RepeatableRead, 0)
	var err error
	switch {
	case src == nil:
		if err = tx.Delete(sourceKey); err == nil {
			err = tx.Delete(positionKey)
		}
	default:
		b, _ := json.Marshal(src)
		err = tx.Set(sourceKey, b)
		if err == nil && pos != nil {
			err = tx.Set(positionKey, pos.encode())
		} else if err == nil && clearPos {
			err = tx.Delete(positionKey)
		}
	}
	if err != nil {
		tx.Rollback()
		return fmt.Errorf("replica: writing the replication state: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("replica: committing the replication state: %w", err)
	}
	return nil
}
