package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/dankyu/dankyu/certs"
)

// maxSealInput bounds what is read of a seal given on standard input.
const maxSealInput = 4 << 10

// certificateVerifyOffline checks a printed certificate's QR code (its
// decoded text, or the seal alone) with the log's verifier key, offline,
// and prints what the paper certifies. With --server it also asks the
// portal for the certificate's current status and checks that answer
// against the public log: revoked or reissued since printing fails.
func certificateVerifyOffline(ctx context.Context, c *call, args []string) error {
	fs := c.flags()
	keyFile := fs.String("key", "", "the log's verifier key, kept from /log/key (needed offline)")
	server := fs.String("server", "", "also check the current status online at this portal, e.g. https://dankyu.example.org")
	if err := c.parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usageError("want one QR text (or - to read it from standard input)")
	}
	text := fs.Arg(0)
	if text == "-" {
		b, err := io.ReadAll(io.LimitReader(c.stdin, maxSealInput))
		if err != nil {
			return fmt.Errorf("read the QR text: %w", err)
		}
		text = string(b)
	}
	var get func(string) ([]byte, error)
	if *server != "" {
		base := strings.TrimRight(*server, "/")
		client := &http.Client{Timeout: 30 * time.Second}
		get = func(path string) ([]byte, error) { return fetch(ctx, client, base+path) }
	}
	vkey, err := verifierKey(c, *keyFile, get)
	if err != nil {
		return err
	}
	seal, err := VerifySeal(text, vkey)
	if err != nil {
		return err
	}
	s := seal.Seal
	fmt.Fprintf(c.stdout, "signature: good, signed by the log's key %s\n", keyName(vkey))
	fmt.Fprintf(c.stdout, "certificate %s\n", s.Number)
	fmt.Fprintf(c.stdout, "  holder:     %s\n", s.Holder)
	fmt.Fprintf(c.stdout, "  rank:       %s (%s)\n", s.Rank.Chinese(), s.Rank.English())
	fmt.Fprintf(c.stdout, "  basis:      %s\n", s.Basis)
	fmt.Fprintf(c.stdout, "  issued:     %s\n", s.IssueDate.Format(time.DateOnly))
	fmt.Fprintf(c.stdout, "  log index:  %d (event %d)\n", s.LogIndex, s.LogIndex+1)
	if get == nil {
		fmt.Fprintln(c.stdout, "status: not checked online (pass --server to learn whether it was revoked or reissued since)")
		return nil
	}
	on, err := checkOnline(get, vkey, nil, s.Number, s.Holder, nil)
	if err != nil {
		return err
	}
	if err := SealAgrees(s, on); err != nil {
		return err
	}
	switch on.State.Status {
	case certs.CertValid:
		fmt.Fprintf(c.stdout, "status: VALID now, as the log says (%d events checked)\n", len(on.Events))
		return nil
	case certs.CertReissued:
		fmt.Fprintf(c.stdout, "status: REISSUED since: replaced by %s; this paper is void\n", on.State.ReplacedBy)
	default:
		fmt.Fprintf(c.stdout, "status: %s since: %s; this paper is void\n", strings.ToUpper(string(on.State.Status)), on.State.StatusReason)
	}
	return fmt.Errorf("certificate %s is %s", s.Number, on.State.Status)
}

// VerifySeal reads a QR code's text and checks its seal with the log's
// verifier key: the offline verification.
func VerifySeal(text, vkey string) (certs.SignedSeal, error) {
	seal, err := certs.ParseSeal(text)
	if err != nil {
		return certs.SignedSeal{}, err
	}
	if err := seal.Check(vkey); err != nil {
		return certs.SignedSeal{}, err
	}
	return seal, nil
}

// SealAgrees checks a seal against what the log says of its certificate
// (checkOnline): the same number, holder, rank, basis and date, issued by
// the event the seal names.
func SealAgrees(s certs.Seal, on online) error {
	st := on.State
	var differ []string
	if st.Number != s.Number {
		differ = append(differ, "number")
	}
	if st.HasHolder && st.Holder != s.Holder {
		differ = append(differ, "holder")
	}
	if st.Rank != s.Rank {
		differ = append(differ, "rank")
	}
	if st.Basis != s.Basis {
		differ = append(differ, "basis")
	}
	if st.IssueDate != s.IssueDate.Format(time.DateOnly) {
		differ = append(differ, "issue date")
	}
	if len(on.Events) == 0 || on.Events[0].ID != s.LogIndex+1 {
		differ = append(differ, "log index")
	}
	if len(differ) > 0 {
		return errors.New("the seal disagrees with the log in " + strings.Join(differ, ", "))
	}
	return nil
}

// keyName is a verifier key's name and hash, as "name+hash".
func keyName(vkey string) string {
	if i := strings.LastIndexByte(vkey, '+'); i > 0 {
		return vkey[:i]
	}
	return vkey
}
