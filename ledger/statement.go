package ledger

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"golang.org/x/mod/sumdb/note"
)

// statementPrefix begins every statement the log's key signs besides its
// checkpoints. A checkpoint's signed text begins with the log's origin
// line, never with this line, so no signed statement can be passed off as
// a checkpoint, nor a checkpoint as a statement.
const statementPrefix = "dankyu signed statement\n"

// StatementSignature is a detached signature of a statement by the log's
// key: the note key's hash says which key (the log's key may rotate), Sig
// is the Ed25519 signature.
type StatementSignature struct {
	KeyHash uint32
	Sig     []byte
}

// statementText is what is signed for a statement of purpose over body:
// the prefix, the purpose on a line of its own, then the body's bytes.
func statementText(purpose string, body []byte) ([]byte, error) {
	if purpose == "" || strings.ContainsAny(purpose, "\n\r") || len(purpose) > 64 {
		return nil, fmt.Errorf("statement purpose %q: want one short line", purpose)
	}
	var b bytes.Buffer
	b.WriteString(statementPrefix)
	b.WriteString(purpose)
	b.WriteByte('\n')
	b.Write(body)
	return b.Bytes(), nil
}

// SignStatement signs body for purpose (e.g. "certificate-qr/v1") with
// the log's key, which the public already holds (/log/key): what a paper
// certificate carries so it verifies offline. A halted notary signs
// nothing.
func (n *Notary) SignStatement(purpose string, body []byte) (StatementSignature, error) {
	if err := n.Halted(); err != nil {
		return StatementSignature{}, err
	}
	msg, err := statementText(purpose, body)
	if err != nil {
		return StatementSignature{}, err
	}
	sig, err := n.signer.Sign(msg)
	if err != nil {
		return StatementSignature{}, fmt.Errorf("sign statement: %w", err)
	}
	return StatementSignature{KeyHash: n.signer.KeyHash(), Sig: sig}, nil
}

// ErrStatementKey says a statement was signed by another key than the
// verifier key given (another log, or a key since rotated).
var ErrStatementKey = errors.New("signed by another key than the verifier key given")

// ErrStatementSignature says a statement's signature does not check: the
// statement was altered, or never signed by the key.
var ErrStatementSignature = errors.New("the signature does not match the statement")

// VerifyStatement checks a statement of purpose over body against the
// log's verifier key text (/log/key), offline.
func VerifyStatement(vkey, purpose string, body []byte, s StatementSignature) error {
	v, err := note.NewVerifier(strings.TrimSpace(vkey))
	if err != nil {
		return fmt.Errorf("verifier key: %w", err)
	}
	if v.KeyHash() != s.KeyHash {
		return fmt.Errorf("%w (key hash %08x, the key's is %08x)", ErrStatementKey, s.KeyHash, v.KeyHash())
	}
	msg, err := statementText(purpose, body)
	if err != nil {
		return err
	}
	if !v.Verify(msg, s.Sig) {
		return ErrStatementSignature
	}
	return nil
}
