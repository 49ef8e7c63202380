package kit

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/dankyu/dankyu/ledger"
)

// statusWriter remembers the status a handler answered with.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

type accessNoteKey struct{}

// accessNote is what a handler tells the access log of its request.
type accessNote struct{ quiet bool }

// quiet leaves r out of the access log: it is logged elsewhere, summarised.
func quiet(r *http.Request) {
	if n, _ := r.Context().Value(accessNoteKey{}).(*accessNote); n != nil {
		n.quiet = true
	}
}

// actorKinds name the kinds of actor in the access log.
var actorKinds = map[ledger.ActorKind]string{ledger.Public: "public", ledger.AgencyActor: "agency", ledger.StaffActor: "staff", ledger.SystemActor: "system"}

// accessLog logs one line per portal request: method, path (never the
// query, which may hold names or numbers typed in a search), status,
// duration and the kind of actor, as the request's handlers found it
// (never its token or session). It runs inside withActorMemo, whose memo
// it reads. A request refused by a rate limit is left out (quiet).
func accessLog(log *slog.Logger, now func() time.Time, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := now()
		sw := &statusWriter{ResponseWriter: w}
		note := &accessNote{}
		r = r.WithContext(context.WithValue(r.Context(), accessNoteKey{}, note))
		h.ServeHTTP(sw, r)
		if note.quiet {
			return
		}
		kind := "unknown" // no handler asked who it was (static files, health)
		if memo, _ := r.Context().Value(actorMemoKey{}).(*actorMemo); memo != nil && memo.done {
			kind = actorKinds[memo.actor.Kind]
		}
		if sw.status == 0 {
			sw.status = http.StatusOK
		}
		log.InfoContext(r.Context(), "http", "method", r.Method, "path", SitePath(r.URL.Path), "status", sw.status,
			"took", now().Sub(start), "actor", kind)
	})
}
