package ledger

import (
	"crypto/rand"
	"testing"
	"time"

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
	legacy, err := note.Sign(&note.Note{Text: string(tlog.FormatTree(tlog.Tree{N: 3}))}, signer)
	if err != nil {
		f.Fatal(err)
	}
	current, err := note.Sign(&note.Note{Text: string(FormatCheckpoint(Checkpoint{Origin: DefaultOrigin, Tree: tlog.Tree{N: 3},
		Time: time.Date(2026, 3, 1, 8, 0, 0, 0, time.UTC)}))}, signer)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(legacy)
	f.Add(current)
	f.Add([]byte("go.sum database tree\n3\nAAAA\n\n— x y\n"))
	f.Fuzz(func(t *testing.T, msg []byte) {
		tree, err := OpenCheckpoint(msg, vkey)
		if err == nil && string(msg) != string(legacy) && string(msg) != string(current) && tree.N != 3 {
			t.Fatalf("opened a checkpoint of %d events the key never signed", tree.N)
		}
	})
}

// FuzzParseCheckpoint: any text is parsed or refused, and what parses
// formats back to the same text (one reading of each checkpoint).
func FuzzParseCheckpoint(f *testing.F) {
	f.Add([]byte("dankyu.events/registry\n12\n" + "47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=" + "\ntime 2026-03-01T08:00:00Z\n"))
	f.Add([]byte("go.sum database tree\n3\n47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=\n"))
	f.Add([]byte("o\n1\n47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=\nx-ext 1\ntime 2026-03-01T08:00:00Z\n"))
	f.Fuzz(func(t *testing.T, text []byte) {
		c, err := ParseCheckpoint(text)
		if err != nil {
			return
		}
		again, err := ParseCheckpoint(FormatCheckpoint(c))
		if err != nil || again.Origin != c.Origin || again.Tree != c.Tree || !again.Time.Equal(c.Time) {
			t.Fatalf("%q parsed to %+v, formats to %q, parsed again to %+v (%v)", text, c, FormatCheckpoint(c), again, err)
		}
	})
}

// TestCheckpointFormat: the text is C2SP's, with this log's origin and the
// signing time; the old format still opens.
func TestCheckpointFormat(t *testing.T) {
	c := Checkpoint{Origin: "dankyu.events/test", Tree: tlog.Tree{N: 7, Hash: tlog.Hash{1}}, Time: time.Date(2026, 3, 1, 8, 0, 0, 0, time.UTC)}
	want := "dankyu.events/test\n7\nAQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\ntime 2026-03-01T08:00:00Z\n"
	if got := string(FormatCheckpoint(c)); got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	old, err := ParseCheckpoint(tlog.FormatTree(c.Tree))
	if err != nil || old.Tree != c.Tree || !old.Time.IsZero() {
		t.Fatalf("old format: %+v %v", old, err)
	}
	for _, bad := range []string{
		"dankyu.events/test\n7\nAQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n",                             // no time
		"dankyu.events/test\n07\nAQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\ntime 2026-03-01T08:00:00Z\n", // padded size
		"dankyu.events/test\n7\nAQ==\ntime 2026-03-01T08:00:00Z\n",                                          // short hash
		"\n7\nAQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\ntime 2026-03-01T08:00:00Z\n",                    // no origin
	} {
		if _, err := ParseCheckpoint([]byte(bad)); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

// FuzzDecodeKeptHead: a kept-head file, whatever it holds, is read or
// refused, and what is read is a checkpoint its named key signed.
func FuzzDecodeKeptHead(f *testing.F) {
	skey, vkey, err := note.GenerateKey(rand.Reader, DefaultOrigin)
	if err != nil {
		f.Fatal(err)
	}
	n, err := NewNotary(skey, vkey, NotaryOptions{Now: func() time.Time { return time.Date(2026, 3, 1, 8, 0, 0, 0, time.UTC) }})
	if err != nil {
		f.Fatal(err)
	}
	s, err := n.signHead(tlog.Tree{N: 5}, nil)
	if err != nil {
		f.Fatal(err)
	}
	good, err := EncodeKeptHead(vkey, s)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add([]byte(`{"key": "x", "checkpoint": "y"}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		h, key, err := DecodeKeptHead(b)
		if err != nil {
			return
		}
		if _, err := OpenSignedCheckpoint(h.Note, key); err != nil {
			t.Fatalf("decoded a head its key does not open: %v", err)
		}
	})
}
