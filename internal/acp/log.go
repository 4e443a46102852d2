package acp

import (
	"context"
	"log/slog"

	"github.com/rs/zerolog"
)

// slogHandler hands the SDK's log records to forge's logger, so that
// they go where forge's own go (standard error or the log file), never to
// standard output.
type slogHandler struct {
	log   zerolog.Logger
	attrs []slog.Attr
}

func (h slogHandler) Enabled(_ context.Context, l slog.Level) bool {
	return h.log.GetLevel() <= zerologLevel(l)
}

func (h slogHandler) Handle(_ context.Context, r slog.Record) error {
	e := h.log.WithLevel(zerologLevel(r.Level))
	for _, a := range h.attrs {
		e = e.Str(a.Key, a.Value.String())
	}
	r.Attrs(func(a slog.Attr) bool {
		e = e.Str(a.Key, a.Value.String())
		return true
	})
	e.Msg(r.Message)
	return nil
}

func (h slogHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return slogHandler{log: h.log, attrs: append(append([]slog.Attr(nil), h.attrs...), attrs...)}
}

func (h slogHandler) WithGroup(string) slog.Handler { return h }

func zerologLevel(l slog.Level) zerolog.Level {
	switch {
	case l >= slog.LevelError:
		return zerolog.ErrorLevel
	case l >= slog.LevelWarn:
		return zerolog.WarnLevel
	case l >= slog.LevelInfo:
		return zerolog.InfoLevel
	}
	return zerolog.DebugLevel
}
