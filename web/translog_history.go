package web

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/dankyu/dankyu/ledger"
)

// CheckpointHistory is the log's published checkpoints, kept so anyone can
// download them and see a log that froze (no new checkpoint while the
// registry works) or forked (two checkpoints that are not one tree's).
// The TransparencyLog serves /log/checkpoints when it has one.
type CheckpointHistory interface {
	CheckpointHistory(ctx context.Context, after int64, limit int) ([]ledger.KeptCheckpoint, error)
}

// checkpointsPage is the answer of /log/checkpoints: the checkpoints after
// the id asked for, oldest first, and the id to ask after for more (absent
// when this is the end).
type checkpointsPage struct {
	Checkpoints []ledger.KeptCheckpoint `json:"checkpoints"`
	Next        int64                   `json:"next,omitempty"`
}

// defaultCheckpointsPage is a page's length when the request names none.
const defaultCheckpointsPage = 100

// checkpoints serves GET /log/checkpoints?after=ID&limit=N.
func (p *logPages) checkpoints(w http.ResponseWriter, r *http.Request) {
	h, ok := p.tlog.(CheckpointHistory)
	if !ok {
		http.NotFound(w, r)
		return
	}
	after, limit := int64(0), defaultCheckpointsPage
	q := r.URL.Query()
	if s := q.Get("after"); s != "" {
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil || v < 0 {
			http.Error(w, "want after=ID (a whole number, 0 or more)", http.StatusBadRequest)
			return
		}
		after = v
	}
	if s := q.Get("limit"); s != "" {
		v, err := strconv.Atoi(s)
		if err != nil || v < 1 || v > ledger.MaxCheckpointsPage {
			http.Error(w, "want limit=N from 1 to "+strconv.Itoa(ledger.MaxCheckpointsPage), http.StatusBadRequest)
			return
		}
		limit = v
	}
	cps, err := h.CheckpointHistory(r.Context(), after, limit)
	if err != nil {
		p.Log().Error("checkpoint history", "err", err)
		http.Error(w, "checkpoint history unavailable", http.StatusInternalServerError)
		return
	}
	page := checkpointsPage{Checkpoints: cps}
	if page.Checkpoints == nil {
		page.Checkpoints = []ledger.KeptCheckpoint{}
	}
	if len(cps) == limit {
		page.Next = cps[len(cps)-1].ID
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	_ = json.NewEncoder(w).Encode(page)
}
