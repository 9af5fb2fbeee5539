package main

import (
	"fmt"
	"io"
	"log/slog"

	"arbiter/director"
	"arbiter/store"
)

// stoppedUnstored says, when serve stops during a storage fault (a full
// disk), what it could not store: the moves and results its tables held,
// their clocks, the raw frames in memory; on the log and on w. Such a
// stop is a clean one that loses what it says, not a failure: the raw
// log's last flush failing for the fault is no error then. It returns
// rawErr otherwise.
func stoppedUnstored(w io.Writer, log *slog.Logger, db *store.DB, d *director.Director, raw *store.RawLog, rawErr error) error {
	fault := db.WriteError()
	lost := d.Unstored()
	if fault != nil {
		lost = append(lost, raw.Unflushed()...)
	}
	if len(lost) == 0 {
		return rawErr
	}
	log.Error("stopped during a storage fault: not stored", "fault", fault, "what", lost)
	fmt.Fprintf(w, "arbiter: stopped while the database refused writes (%v); not stored:\n", fault)
	for _, l := range lost {
		fmt.Fprintf(w, "  - %s\n", l)
	}
	if fault != nil {
		return nil // the raw log's error is the fault's, said above
	}
	return rawErr
}
