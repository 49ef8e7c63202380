package ledger

import (
	"crypto/rand"
	"errors"
	"testing"

	"golang.org/x/mod/sumdb/note"
)

// TestStatement: a statement signed by the log's key checks with its
// verifier key; an altered body, another purpose or another key fails; a
// checkpoint's text is never a statement's.
func TestStatement(t *testing.T) {
	skey, vkey, err := note.GenerateKey(rand.Reader, DefaultOrigin)
	if err != nil {
		t.Fatal(err)
	}
	n, err := NewNotary(skey, vkey, NotaryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	body := []byte("110260005 王小明 1d")
	s, err := n.SignStatement("certificate-qr/v1", body)
	if err != nil {
		t.Fatal(err)
	}
	if err := VerifyStatement(vkey, "certificate-qr/v1", body, s); err != nil {
		t.Fatalf("a signed statement: %v", err)
	}
	if err := VerifyStatement(vkey, "certificate-qr/v1", []byte("110260005 王小明 2d"), s); !errors.Is(err, ErrStatementSignature) {
		t.Errorf("an altered body: %v", err)
	}
	if err := VerifyStatement(vkey, "other/v1", body, s); !errors.Is(err, ErrStatementSignature) {
		t.Errorf("another purpose: %v", err)
	}
	_, other, _ := note.GenerateKey(rand.Reader, DefaultOrigin)
	if err := VerifyStatement(other, "certificate-qr/v1", body, s); !errors.Is(err, ErrStatementKey) {
		t.Errorf("another key: %v", err)
	}
	if _, err := n.SignStatement("two\nlines", body); err == nil {
		t.Error("a purpose of two lines was signed")
	}
	msg, _ := statementText("certificate-qr/v1", body)
	if _, err := ParseCheckpoint(msg); err == nil {
		t.Error("a statement's text parses as a checkpoint")
	}
	n.Halt()
	if _, err := n.SignStatement("certificate-qr/v1", body); err == nil {
		t.Error("a halted notary signed")
	}
}
