package web

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"

	"golang.org/x/mod/sumdb/tlog"

	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/web/kit"
)

// TransparencyLog is the signed Merkle tree over the event log that the
// public /log endpoints serve, so anyone can keep checkpoints and check
// that later ones extend them.
type TransparencyLog interface {
	Checkpoint(ctx context.Context) ([]byte, error)
	Consistency(ctx context.Context, old, size int64) (tlog.TreeProof, error)
	Inclusion(ctx context.Context, index, size int64) (tlog.RecordProof, error)
	VerifierKey() string
	// Receipts proves each event in the current tree, all against one
	// signed head (nil for one it does not reach).
	Receipts(ctx context.Context, events []ledger.Event) ([]*ledger.Receipt, error)
	// Entries reads the log's entries start ≤ index < end, each public
	// (its content) or private (its hashes) as the log declares.
	Entries(ctx context.Context, start, end int64) ([]ledger.Entry, error)
}

// proofHashes is a receipt's proof as base64 lines, for the page.
func proofHashes(rc *ledger.Receipt) []string {
	return strings.Fields(proofLines(rc.Proof))
}

// entryURL is where the public reads the content of a receipt's event.
func entryURL(rc *ledger.Receipt) string {
	return "/log/entries?start=" + strconv.FormatInt(rc.Index, 10) + "&end=" + strconv.FormatInt(rc.Index+1, 10)
}

func inclusionURL(rc *ledger.Receipt) string {
	return "/log/inclusion?index=" + strconv.FormatInt(rc.Index, 10) + "&size=" + strconv.FormatInt(rc.Size, 10)
}

func b64(b []byte) string { return base64.StdEncoding.EncodeToString(b) }

// logPages are the public, sign-in-free endpoints of the event log's tree.
type logPages struct {
	*kit.Site
	tlog TransparencyLog
	// limit bounds the entries' reads per client (the verification's limit)
	limit kit.Limiter
}

func (p *logPages) routes(mux *http.ServeMux) {
	if p.tlog == nil {
		return
	}
	mux.HandleFunc("GET /log/checkpoint", p.checkpoint)
	mux.HandleFunc("GET /log/key", func(w http.ResponseWriter, _ *http.Request) {
		writeText(w, p.tlog.VerifierKey()+"\n")
	})
	mux.HandleFunc("GET /log/consistency", p.consistency)
	mux.HandleFunc("GET /log/inclusion", p.inclusion)
	mux.HandleFunc("GET /log/entries", p.Limited(p.limit, p.entries))
	mux.HandleFunc("GET /log/checkpoints", p.checkpoints)
}

// entries serves the log's entries start ≤ index < end (at most
// ledger.MaxEntries), as Certificate Transparency's get-entries: a public
// action's entry with everything its hash covers, any other with its
// hashes alone (its payload may hold personal data).
func (p *logPages) entries(w http.ResponseWriter, r *http.Request) {
	v, ok := queryInts(r, "start", "end")
	if !ok {
		http.Error(w, "want start=I&end=J", http.StatusBadRequest)
		return
	}
	es, err := p.tlog.Entries(r.Context(), v[0], v[1])
	if e, ok := ledger.AsError(err); ok {
		http.Error(w, e.Message(ledger.English), kit.HTTPStatus(err))
		return
	}
	if err != nil {
		p.Log().Error("log entries", "err", err)
		http.Error(w, "entries unavailable", http.StatusInternalServerError)
		return
	}
	writeJSON(w, http.StatusOK, struct {
		Entries []ledger.Entry `json:"entries"`
	}{es})
}

// writeJSON answers v as JSON.
func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}

func writeText(w http.ResponseWriter, s string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write([]byte(s))
}

func (p *logPages) checkpoint(w http.ResponseWriter, r *http.Request) {
	msg, err := p.tlog.Checkpoint(r.Context())
	if e, ok := ledger.AsError(err); ok {
		// a log whose witness found tampering signs nothing: say so, coded
		w.Header().Set("X-Dankyu-Reason", e.Reason.Code())
		http.Error(w, e.Reason.Code()+"\n"+e.Message(ledger.Chinese)+"\n"+e.Message(ledger.English), http.StatusServiceUnavailable)
		return
	}
	if err != nil {
		p.Log().Error("sign checkpoint", "err", err)
		http.Error(w, "checkpoint unavailable", http.StatusInternalServerError)
		return
	}
	writeText(w, string(msg))
}

// proofLines is a proof's hashes, one base64 per line.
func proofLines(hs []tlog.Hash) string {
	var b strings.Builder
	for _, h := range hs {
		b.WriteString(base64.StdEncoding.EncodeToString(h[:]))
		b.WriteByte('\n')
	}
	return b.String()
}

func queryInts(r *http.Request, names ...string) ([]int64, bool) {
	out := make([]int64, len(names))
	for i, n := range names {
		v, err := strconv.ParseInt(r.URL.Query().Get(n), 10, 64)
		if err != nil {
			return nil, false
		}
		out[i] = v
	}
	return out, true
}

func (p *logPages) proofError(w http.ResponseWriter, err error) {
	if errors.Is(err, ledger.ErrTreeRange) {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	p.Log().Error("log proof", "err", err)
	http.Error(w, "proof unavailable", http.StatusInternalServerError)
}

func (p *logPages) consistency(w http.ResponseWriter, r *http.Request) {
	v, ok := queryInts(r, "old", "new")
	if !ok {
		http.Error(w, "want old=N&new=M", http.StatusBadRequest)
		return
	}
	proof, err := p.tlog.Consistency(r.Context(), v[0], v[1])
	if err != nil {
		p.proofError(w, err)
		return
	}
	writeText(w, proofLines(proof))
}

func (p *logPages) inclusion(w http.ResponseWriter, r *http.Request) {
	v, ok := queryInts(r, "index", "size")
	if !ok {
		http.Error(w, "want index=I&size=N", http.StatusBadRequest)
		return
	}
	proof, err := p.tlog.Inclusion(r.Context(), v[0], v[1])
	if err != nil {
		p.proofError(w, err)
		return
	}
	writeText(w, proofLines(proof))
}
