package federation

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
)

// serverLog is the embedded NATS server's logger: each line goes into the
// daemon's log at the level it deserves, and to watch (the role's link
// watcher), which learns from it what goes wrong with the leaf node link.
type serverLog struct {
	log   *slog.Logger
	watch func(level slog.Level, line string)
}

// Noticef logs the server's notices: its leaf node links made and lost at
// info, the rest (its banner, its settings) at debug.
func (l serverLog) Noticef(format string, v ...any) {
	level := slog.LevelDebug
	if strings.Contains(format, "Leafnode connection") || strings.Contains(format, "JetStream using domains") {
		level = slog.LevelInfo
	}
	l.emit(level, format, v)
}

// Warnf logs the server's warnings.
func (l serverLog) Warnf(format string, v ...any) { l.emit(slog.LevelWarn, format, v) }

// Fatalf logs the server's fatal errors, as errors: the daemon decides
// what to do.
func (l serverLog) Fatalf(format string, v ...any) { l.emit(slog.LevelError, format, v) }

// Errorf logs the server's errors. That the hub cannot be reached is a
// warning: the link comes back by itself, and the hall plays on alone
// meanwhile; a link refused (credentials, port, name) is an error.
func (l serverLog) Errorf(format string, v ...any) {
	level := slog.LevelError
	if strings.HasPrefix(format, "Error trying to connect as leafnode") {
		level = slog.LevelWarn
	}
	l.emit(level, format, v)
}

// Debugf logs the server's debugging lines (given only when the daemon
// logs at debug).
func (l serverLog) Debugf(format string, v ...any) { l.emit(slog.LevelDebug, format, v) }

// Tracef logs the server's traces at debug (they are never switched on).
func (l serverLog) Tracef(format string, v ...any) { l.emit(slog.LevelDebug, format, v) }

func (l serverLog) emit(level slog.Level, format string, v []any) {
	line := fmt.Sprintf(format, v...)
	if l.watch != nil {
		l.watch(level, line)
	}
	if l.log != nil {
		l.log.Log(context.Background(), level, "nats server: "+line)
	}
}
