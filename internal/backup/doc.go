// Package backup takes online, consistent backups of a running strata
// server's store and restores them into a new data directory.
//
// # Basics
//
// Take makes a Pebble checkpoint of the open store (kv.DB.Checkpoint: the
// WAL synced, table files hard-linked into a staging directory inside the
// data directory, so the copy is consistent as of one instant and costs no
// I/O) and then copies it into the backup directory. When the directory
// the backup is made in already holds earlier backups, the newest complete
// one is the base: a table or blob file with the same name and size in the
// base is the same file (Pebble never rewrites one; a new file gets a new
// number), so it is hard-linked from the base — or copied from it on
// another filesystem — instead of being read again from the live store.
// Only new files are copied from the checkpoint. That makes every backup
// after the first incremental, while each backup directory stays a
// complete, self-contained data directory.
//
// Every backup directory holds a manifest (ManifestName, JSON): when it was
// taken, the instant the checkpoint was made (every transaction committed
// before it is in the backup, none committed after it, and none partly),
// each file with its size and SHA-256, and the bytes copied and reused.
// Restore checks every file against the manifest while copying it into an
// empty data directory; a server started on that directory sees the data
// as of the checkpoint.
//
// # Caveats
//
//   - Only the store is backed up: the warmup file (a cache hint), the
//     temporary directory and secure_file_priv's export directory are not.
//   - With the binary log on, the manifest records the log's file,
//     position and GTID set at the checkpoint (Options.BinlogPosition: the
//     checkpoint is made under the log's commit-order lock, so the two
//     describe the same commit boundary); point-in-time recovery replays
//     the log from there. Without it the manifest has no binlog field
//     (never a guessed one).
//   - Backups are serialised within a process (one at a time).
package backup
