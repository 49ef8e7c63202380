package ledger

import (
	"crypto/rand"
	"testing"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

// FuzzOpenCheckpoint: a checkpoint file from outside is opened or refused,
// never a panic, and nothing opens that the key did not sign.
func FuzzOpenCheckpoint(f *testing.F) {
	skey, vkey, err := note.GenerateKey(rand.Reader, "dankyu-fuzz")
	if err != nil {
		f.Fatal(err)
	}
	signer, err := note.NewSigner(skey)
	if err != nil {
		f.Fatal(err)
	}
	signed, err := note.Sign(&note.Note{Text: string(tlog.FormatTree(tlog.Tree{N: 3}))}, signer)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(signed)
	f.Add([]byte("go.sum database tree\n3\nAAAA\n\n— x y\n"))
	f.Fuzz(func(t *testing.T, msg []byte) {
		tree, err := OpenCheckpoint(msg, vkey)
		if err == nil && string(msg) != string(signed) && tree.N != 3 {
			t.Fatalf("opened a checkpoint of %d events the key never signed", tree.N)
		}
	})
}
