package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"golang.org/x/mod/sumdb/tlog"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/ledger"
)

// logCertificate checks, with the portal's public endpoints alone, that
// what the verification answers of a certificate is what the event log
// says: each receipt checks with the verifier key, each event's content
// (/log/entries) hashes to the receipt's record, and the events fold into
// the certificate shown.
func logCertificate(ctx context.Context, c *call, args []string) error {
	fs := c.flags()
	server := fs.String("server", c.getenv("DANKYU_SERVER"), "the portal's address, e.g. https://dankyu.example.org (DANKYU_SERVER)")
	keyFile := fs.String("key", "", "the log's verifier key, kept from /log/key (default: fetch it now, trusting the server)")
	cpFile := fs.String("checkpoint", "", "a checkpoint kept earlier (/log/checkpoint): the receipts' tree must extend it")
	name := fs.String("name", "", "the holder's name as claimed: a minor's name is shown only to who names him")
	if err := c.parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 || *server == "" {
		return usageError("want --server URL and one certificate number")
	}
	base := strings.TrimRight(*server, "/")
	client := &http.Client{Timeout: 30 * time.Second}
	get := func(path string) ([]byte, error) { return fetch(ctx, client, base+path) }
	vkey, err := verifierKey(c, *keyFile, get)
	if err != nil {
		return err
	}
	var kept *tlog.Tree
	if *cpFile != "" {
		msg, err := os.ReadFile(*cpFile)
		if err != nil {
			return fmt.Errorf("read checkpoint: %w", err)
		}
		tree, err := ledger.OpenCheckpoint(msg, vkey)
		if err != nil {
			return fmt.Errorf("%s: %w", *cpFile, err)
		}
		kept = &tree
	}
	on, err := checkOnline(get, vkey, kept, fs.Arg(0), *name, func(ev ledger.Event, size int64) {
		fmt.Fprintf(c.stdout, "event %d %s: in the signed tree of %d events, its content hashes to its record\n", ev.ID, ev.Action, size)
	})
	if err != nil {
		if on.UnderReview {
			fmt.Fprintf(c.stdout, "certificate %s: the server answers UNDER REVIEW (%s): its record disagrees with the log\n", on.Answer.Number, on.Answer.ReasonCode)
			fmt.Fprintf(c.stdout, "the log says: %s, %s, holder %q, issued %s\n", on.State.Rank, on.State.Status, on.State.Holder, on.State.IssueDate)
		}
		return err
	}
	fmt.Fprintf(c.stdout, "certificate %s: %s, %s, holder %q, issued %s: the answer agrees with %d logged events\n",
		on.Answer.Number, on.State.Status, on.State.Rank, on.Holder, on.State.IssueDate, len(on.Events))
	if on.Answer.Certificate.HolderWithheld {
		fmt.Fprintln(c.stdout, "note: the holder is a minor and the name given is not his: the server withholds the name (the log's is shown)")
	}
	if !on.State.HasHolder {
		fmt.Fprintln(c.stdout, "note: its issuance predates logged holders' names: the name shown is not bound by the log")
	}
	return nil
}

// online is a certificate's verification answer checked against the log:
// the answer, its events (each receipt and content checked), their fold,
// and the holder's name as shown (the log's when the server withholds a
// minor's).
type online struct {
	Answer      certs.PublicAnswer
	Events      []ledger.Event
	State       certs.LoggedState
	Holder      string
	UnderReview bool
}

// checkOnline asks the portal's /verify/proof for number (with the
// claimant's name, "" none) and checks what it answers against the public
// log: each receipt with the verifier key (and against a kept tree), each
// event's content, and the fold of the events against the certificate and
// verdict shown. each hears of every event checked.
func checkOnline(get func(string) ([]byte, error), vkey string, kept *tlog.Tree, number, name string, each func(ledger.Event, int64)) (online, error) {
	var on online
	q := url.Values{"number": {number}}
	if name != "" {
		q.Set("name", name)
	}
	body, err := get("/verify/proof?" + q.Encode())
	if err != nil {
		return on, err
	}
	ans, err := parseAnswer(body)
	if err != nil {
		return on, err
	}
	on.Answer = ans
	if !ans.Found {
		return on, fmt.Errorf("certificate %s: no such certificate", ans.Number)
	}
	if len(ans.Receipts) == 0 {
		return on, fmt.Errorf("certificate %s: the server gives no receipt (it signs no log)", ans.Number)
	}
	for _, pr := range ans.Receipts {
		ev, err := checkEvent(pr, vkey, kept, get)
		if err != nil {
			return on, fmt.Errorf("certificate %s: %w", ans.Number, err)
		}
		on.Events = append(on.Events, ev)
		if each != nil {
			each(ev, pr.TreeSize)
		}
	}
	st, err := certs.FoldCertificate(on.Events[0].EntityID, on.Events)
	if err != nil {
		return on, fmt.Errorf("certificate %s: its logged events make no certificate: %w", ans.Number, err)
	}
	on.State = st
	if ans.Verdict == certs.VerdictUnderReview {
		on.UnderReview = true
		return on, errors.New("not valid: under review")
	}
	if ans.Certificate == nil {
		return on, fmt.Errorf("certificate %s: the answer shows no certificate", ans.Number)
	}
	shown, err := ans.Certificate.Certificate()
	if err != nil {
		return on, fmt.Errorf("certificate %s: the answer's certificate: %w", ans.Number, err)
	}
	if ans.Certificate.HolderWithheld {
		// a minor's name is withheld from who does not name him: the log's stands
		shown.PlayerName = st.Holder
	}
	if d := st.Disagreements(shown); len(d) > 0 {
		return on, fmt.Errorf("certificate %s: the answer disagrees with its logged events in %s", ans.Number, strings.Join(d, ", "))
	}
	if string(st.Status) != string(ans.Verdict) {
		return on, fmt.Errorf("certificate %s: verdict %s, but the log says %s", ans.Number, ans.Verdict, st.Status)
	}
	on.Holder = shown.PlayerName
	return on, nil
}

// verifierKey is the log's verifier key: read from file, or without one
// fetched from the server (get) with a warning.
func verifierKey(c *call, file string, get func(string) ([]byte, error)) (string, error) {
	if file != "" {
		b, err := os.ReadFile(file)
		if err != nil {
			return "", fmt.Errorf("read verifier key: %w", err)
		}
		return strings.TrimSpace(string(b)), nil
	}
	if get == nil {
		return "", usageError("want --key FILE: the log's verifier key, kept from /log/key")
	}
	b, err := get("/log/key")
	if err != nil {
		return "", err
	}
	fmt.Fprintln(c.stderr, "warning: the verifier key was fetched from the server itself; keep it and pass --key to check against a key you trust")
	return strings.TrimSpace(string(b)), nil
}

// checkEvent checks one receipt (with the verifier key, and against a kept
// checkpoint) and the content of its event, fetched from /log/entries.
func checkEvent(pr ledger.PublicReceipt, vkey string, kept *tlog.Tree, get func(string) ([]byte, error)) (ledger.Event, error) {
	rc, err := pr.Receipt()
	if err != nil {
		return ledger.Event{}, err
	}
	if err := rc.Check(vkey); err != nil {
		return ledger.Event{}, fmt.Errorf("receipt of event %d: %w", pr.EventID, err)
	}
	if kept != nil {
		if err := extends(*kept, tlog.Tree{N: rc.Size, Hash: rc.TreeHash}, get); err != nil {
			return ledger.Event{}, err
		}
	}
	body, err := get(fmt.Sprintf("/log/entries?start=%d&end=%d", rc.Index, rc.Index+1))
	if err != nil {
		return ledger.Event{}, err
	}
	entries, err := parseEntries(body)
	if err != nil {
		return ledger.Event{}, err
	}
	if len(entries) != 1 || entries[0].ID != pr.EventID {
		return ledger.Event{}, fmt.Errorf("/log/entries does not serve event %d", pr.EventID)
	}
	en := entries[0]
	switch {
	case !en.Public:
		return ledger.Event{}, fmt.Errorf("event %d is served as private: its content cannot be checked", en.ID)
	case en.Action != pr.Action:
		return ledger.Event{}, fmt.Errorf("event %d is %s, the receipt says %s", en.ID, en.Action, pr.Action)
	case !bytes.Equal(en.Hash, rc.Record):
		return ledger.Event{}, fmt.Errorf("event %d: the entry's hash is not the receipt's record", en.ID)
	}
	if err := en.Check(); err != nil {
		return ledger.Event{}, err
	}
	return en.Event()
}

// extends checks that one of two trees is a prefix of the other, with the
// public consistency proof.
func extends(a, b tlog.Tree, get func(string) ([]byte, error)) error {
	if a.N > b.N {
		a, b = b, a
	}
	if a.N == 0 || a.N == b.N {
		if a.N == b.N && a.Hash != b.Hash {
			return fmt.Errorf("two trees of %d events with different hashes: the log forked", a.N)
		}
		return nil
	}
	body, err := get(fmt.Sprintf("/log/consistency?old=%d&new=%d", a.N, b.N))
	if err != nil {
		return err
	}
	var proof tlog.TreeProof
	for _, line := range strings.Fields(string(body)) {
		h, err := base64.StdEncoding.DecodeString(line)
		if err != nil || len(h) != tlog.HashSize {
			return fmt.Errorf("consistency proof: a bad hash line")
		}
		proof = append(proof, tlog.Hash(h))
	}
	if err := tlog.CheckTree(proof, b.N, b.Hash, a.N, a.Hash); err != nil {
		return fmt.Errorf("the tree of %d events does not extend that of %d (the kept checkpoint): %w", b.N, a.N, err)
	}
	return nil
}

// maxPublicBody bounds what the tool reads of one answer: a page of
// entries is at most ledger.MaxEntries small events.
const maxPublicBody = 8 << 20

func fetch(ctx context.Context, client *http.Client, u string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxPublicBody+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", u, err)
	}
	if len(body) > maxPublicBody {
		return nil, fmt.Errorf("%s: an answer over %d bytes", u, maxPublicBody)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s: %s: %s", u, resp.Status, strings.TrimSpace(string(body[:min(len(body), 300)])))
	}
	return body, nil
}

// parseEntries reads a /log/entries answer: at most ledger.MaxEntries
// entries, ids rising one by one, hashes of the tree's size.
func parseEntries(body []byte) ([]ledger.Entry, error) {
	if len(body) > maxPublicBody {
		return nil, errors.New("entries: answer too large")
	}
	var page struct {
		Entries []ledger.Entry `json:"entries"`
	}
	if err := json.Unmarshal(body, &page); err != nil {
		return nil, fmt.Errorf("entries: %w", err)
	}
	if len(page.Entries) > ledger.MaxEntries {
		return nil, fmt.Errorf("entries: %d entries, at most %d are served", len(page.Entries), ledger.MaxEntries)
	}
	for i, e := range page.Entries {
		switch {
		case e.ID < 1 || (i > 0 && e.ID != page.Entries[i-1].ID+1):
			return nil, fmt.Errorf("entries: id %d out of order", e.ID)
		case len(e.Hash) != tlog.HashSize || (len(e.PrevHash) != tlog.HashSize && !(e.ID == 1 && len(e.PrevHash) == 0)):
			return nil, fmt.Errorf("entries: event %d: hashes of the wrong size", e.ID)
		case i > 0 && !bytes.Equal(e.PrevHash, page.Entries[i-1].Hash):
			return nil, fmt.Errorf("entries: event %d does not chain to event %d", e.ID, page.Entries[i-1].ID)
		}
	}
	return page.Entries, nil
}

// parseAnswer reads a /verify/proof answer.
func parseAnswer(body []byte) (certs.PublicAnswer, error) {
	var a certs.PublicAnswer
	if len(body) > maxPublicBody {
		return a, errors.New("verification answer too large")
	}
	if err := json.Unmarshal(body, &a); err != nil {
		return a, fmt.Errorf("verification answer: %w", err)
	}
	if len(a.Receipts) > 64 {
		return a, fmt.Errorf("verification answer: %d receipts for one certificate", len(a.Receipts))
	}
	for _, r := range a.Receipts {
		if r.EventID < 1 || r.TreeSize < r.EventID || len(r.Proof) > 64 {
			return a, fmt.Errorf("verification answer: receipt of event %s is out of range", strconv.FormatInt(r.EventID, 10))
		}
	}
	return a, nil
}
