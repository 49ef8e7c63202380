package certs_test

import (
	"crypto/rand"
	"encoding/base64"
	"strings"
	"testing"
	"time"

	"golang.org/x/mod/sumdb/note"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
)

// sealKey is a log key pair and its notary.
func sealKey(t testing.TB) (*ledger.Notary, string) {
	t.Helper()
	skey, vkey, err := note.GenerateKey(rand.Reader, ledger.DefaultOrigin)
	if err != nil {
		t.Fatal(err)
	}
	n, err := ledger.NewNotary(skey, vkey, ledger.NotaryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return n, vkey
}

func signedSeal(t testing.TB, n *ledger.Notary, s certs.Seal) string {
	t.Helper()
	sig, err := n.SignStatement(certs.SealPurpose, s.Body())
	if err != nil {
		t.Fatal(err)
	}
	return certs.SealText(s.Body(), sig)
}

// TestSeal: a seal reads back to its facts and checks with the log's
// verifier key, alone or after its link; any changed byte, another key or
// a malformed text fails with a coded error; it stays short enough for a
// QR code on paper.
func TestSeal(t *testing.T) {
	n, vkey := sealKey(t)
	want := certs.Seal{Number: "110260005", Holder: "欧阳长名字测试", Rank: registry.Rank(4), Basis: certs.Tournament,
		IssueDate: time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC), LogIndex: 123456}
	text := signedSeal(t, n, want)
	if len(text) > 200 {
		t.Errorf("seal of %d characters: %s", len(text), text)
	}
	for _, in := range []string{text, "https://dankyu.example.org/c/110260005/abcDEF#" + text, "  " + text + "\n"} {
		got, err := certs.ParseSeal(in)
		if err != nil {
			t.Fatalf("parse %q: %v", in, err)
		}
		if got.Seal != want {
			t.Errorf("read back %+v, want %+v", got.Seal, want)
		}
		if err := got.Check(vkey); err != nil {
			t.Errorf("check: %v", err)
		}
	}

	// another holder's name, rank or date under the same signature
	for _, change := range []func(*certs.Seal){
		func(s *certs.Seal) { s.Holder = "欧阳长名字测验" },
		func(s *certs.Seal) { s.Rank = 5 },
		func(s *certs.Seal) { s.IssueDate = s.IssueDate.AddDate(0, 0, 1) },
		func(s *certs.Seal) { s.LogIndex++ },
	} {
		forged := want
		change(&forged)
		raw, _ := base64.RawURLEncoding.DecodeString(strings.TrimPrefix(text, "DKC1."))
		tail := raw[len(want.Body()):]
		ftext := "DKC1." + base64.RawURLEncoding.EncodeToString(append(forged.Body(), tail...))
		s, err := certs.ParseSeal(ftext)
		if err != nil {
			t.Fatalf("parse forged: %v", err)
		}
		if err := s.Check(vkey); codeOf(err) != "SEAL_SIGNATURE" || !strings.Contains(err.Error(), "altered") {
			t.Errorf("forged %+v: %v", forged, err)
		}
	}
	_, other := sealKey(t)
	s, _ := certs.ParseSeal(text)
	if err := s.Check(other); codeOf(err) != "SEAL_KEY" || !strings.Contains(err.Error(), ledger.DefaultOrigin) {
		t.Errorf("another key: %v", err)
	}
	if err := s.Check("not a key"); codeOf(err) != "SEAL_VERIFIER_KEY" {
		t.Errorf("a bad verifier key: %v", err)
	}
	raw, _ := base64.RawURLEncoding.DecodeString(strings.TrimPrefix(text, "DKC1."))
	v2 := append([]byte{2}, raw[1:]...)
	trailing := append(append(append([]byte(nil), want.Body()...), 0), raw[len(want.Body()):]...)
	for _, tt := range []struct{ text, code string }{
		{"", "SEAL_NOT_A_SEAL"}, {"https://x/c/1", "SEAL_NOT_A_SEAL"}, {"DKC2." + strings.TrimPrefix(text, "DKC1."), "SEAL_NOT_A_SEAL"},
		{"DKC1.", "SEAL_ENCODING"}, {"DKC1.!!!", "SEAL_ENCODING"},
		{"DKC1." + base64.RawURLEncoding.EncodeToString(v2), "SEAL_VERSION"},
		{"DKC1." + base64.RawURLEncoding.EncodeToString(append([]byte{1, 100}, make([]byte, 78)...)), "SEAL_FIELD"},
		{"DKC1." + base64.RawURLEncoding.EncodeToString(trailing), "SEAL_TRAILING"},
		{strings.Repeat("A", 600), "SEAL_TOO_LONG"},
	} {
		if _, err := certs.ParseSeal(tt.text); codeOf(err) != tt.code {
			t.Errorf("ParseSeal(%.40q) = %v, want %s", tt.text, err, tt.code)
		}
	}
}

// FuzzParseSeal: any text is read or refused with a coded error, and what
// is read writes back to the same body.
func FuzzParseSeal(f *testing.F) {
	n, _ := sealKey(f)
	f.Add(signedSeal(f, n, certs.Seal{Number: "110260005", Holder: "王小明", Rank: 1, Basis: certs.Tournament, LogIndex: 7}))
	f.Add("https://x/c/1#DKC1.AQ")
	f.Add("DKC1.AQlxMTAyNjAwMDU")
	f.Fuzz(func(t *testing.T, text string) {
		s, err := certs.ParseSeal(text)
		if err != nil {
			if !strings.HasPrefix(codeOf(err), "SEAL_") {
				t.Fatalf("uncoded refusal: %v", err)
			}
			return
		}
		if string(s.Seal.Body()) != string(s.Body) {
			t.Fatalf("%+v writes %x, read from %x", s.Seal, s.Seal.Body(), s.Body)
		}
	})
}

// codeOf is a coded error's reason code, "" for any other.
func codeOf(err error) string {
	if e, ok := ledger.AsError(err); ok {
		return e.Reason.Code()
	}
	return ""
}
